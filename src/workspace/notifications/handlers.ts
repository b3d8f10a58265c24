// The workspace's notification address, administered by its Owner and Admin over bearer JWTs
// (/api/v1/workspaces/{workspace_id}/notifications): where the warning mail of a paused webhook goes.
import { warningRecipientSql } from '../../core/workspaces/warning-recipient.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { userOf } from '../context.js';
import type { WorkspaceDeps } from '../deps.js';
import { WorkspaceAppError } from '../errors.js';
import type { WorkspaceFeatureHandlers } from '../handler-types.js';
import { requireOwnerOrAdmin } from '../keys/access.js';

interface NotificationSettings {
  workspace_id: string;
  email: string | null;
  recipient: string | null;
}

const ownerOrAdminOnly = () =>
  new WorkspaceAppError(403, 'forbidden', "Only the workspace's Owner and Admin manage its notification address.");

async function settingsOf(db: Queryable, workspaceId: string): Promise<NotificationSettings> {
  const { rows } = await db.query<NotificationSettings>(
    `select ws.id as workspace_id, ws.notification_email as email, ${warningRecipientSql} as recipient
       from workspaces ws join accounts a on a.id = ws.owner_id where ws.id = $1`,
    [workspaceId],
  );
  return rows[0]!;
}

export function notificationHandlers(
  deps: WorkspaceDeps,
): WorkspaceFeatureHandlers<'getWorkspaceNotifications' | 'setWorkspaceNotifications'> {
  return {
    async getWorkspaceNotifications({ params }, ctx) {
      await requireOwnerOrAdmin(deps.sql, userOf(ctx), params.workspace_id, ownerOrAdminOnly);
      return { status: 200, body: await settingsOf(deps.sql, params.workspace_id) };
    },
    async setWorkspaceNotifications({ params, body }, ctx) {
      await requireOwnerOrAdmin(deps.sql, userOf(ctx), params.workspace_id, ownerOrAdminOnly);
      await deps.sql.query('update workspaces set notification_email = $2, updated_at = $3 where id = $1', [
        params.workspace_id,
        body.email,
        deps.clock.now(),
      ]);
      return { status: 200, body: await settingsOf(deps.sql, params.workspace_id) };
    },
  };
}
