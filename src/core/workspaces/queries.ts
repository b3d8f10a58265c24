// The statement of the membership lookup that partner and workspace key administration share.
import type { InferResult } from 'kysely';
import { firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { coreDb } from '../tables.js';

/** The workspace and the caller's role in it (null when not a member: a platform administrator reading it). */
const withRoleOf = (workspaceId: string, accountId: string) =>
  coreDb
    .selectFrom('workspaces as w')
    .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'w.id').on('m.account_id', '=', accountId))
    .select(['w.id', 'w.name', 'w.plan', 'w.owner_id', 'w.created_at', 'm.role as my_role'])
    .where('w.id', '=', workspaceId);

export type WorkspaceRow = InferResult<ReturnType<typeof withRoleOf>>[number];

/** The workspace with the account's role in it; undefined when there is no such workspace. */
export async function workspaceWithRole(db: Runner, workspaceId: string, accountId: string): Promise<WorkspaceRow | undefined> {
  return firstRow(db, withRoleOf(workspaceId, accountId));
}

export const examples: QueryExamples = {
  workspaceWithRole: (db) => workspaceWithRole(db, example.id, example.otherId),
};
