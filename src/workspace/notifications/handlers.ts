// The workspace's notification address, administered by its Owner and Admin over bearer JWTs
// (/api/v1/workspaces/{workspace_id}/notifications): where the warning mail of a paused webhook goes.
import { warningRecipients } from '../../core/workspaces/warning-recipient.js';
import type { Runner } from '../../platform/db/typed.js';
import { userOf } from '../base/context.js';
import type { WorkspaceDeps } from '../base/deps.js';
import { WorkspaceAppError } from '../base/errors.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { requireOwnerOrAdmin } from '../keys/access.js';
import { notificationAddresses, setNotificationEmail } from './queries.js';

const ownerOrAdminOnly = () =>
  new WorkspaceAppError(403, 'forbidden', "Only the workspace's Owner and Admin manage its notification address.");

/** The address set, and where the warning mail goes (the owner's address, and the set one too). */
async function settingsOf(db: Runner, workspaceId: string) {
  const settings = await notificationAddresses(db, workspaceId);
  const { workspace_id, email, owner_email } = settings!;
  return { workspace_id, email, recipients: warningRecipients(owner_email, email) };
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
      await setNotificationEmail(deps.sql, params.workspace_id, body.email, deps.clock.now());
      return { status: 200, body: await settingsOf(deps.sql, params.workspace_id) };
    },
  };
}
