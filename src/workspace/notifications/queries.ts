// The statements of a workspace's notification address.
import { affected, firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { workspaceDb } from '../base/tables.js';

/** The address set and the owner's address, or undefined when there is no such workspace. */
export function notificationAddresses(db: Runner, workspaceId: string) {
  return firstRow(
    db,
    workspaceDb
      .selectFrom('workspaces as ws')
      .innerJoin('accounts as a', 'a.id', 'ws.owner_id')
      .select(['ws.id as workspace_id', 'ws.notification_email as email', 'a.email as owner_email'])
      .where('ws.id', '=', workspaceId),
  );
}

export async function setNotificationEmail(db: Runner, workspaceId: string, email: string | null, at: Date): Promise<void> {
  await affected(
    db,
    workspaceDb.updateTable('workspaces').set({ notification_email: email, updated_at: at }).where('id', '=', workspaceId),
  );
}

export const examples: QueryExamples = {
  notificationAddresses: (db) => notificationAddresses(db, example.id),
  setNotificationEmail: (db) => setNotificationEmail(db, example.id, 'ops@example.com', example.at),
};
