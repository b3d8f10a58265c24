// The audit log for the workspace's Owner and Admin (bearer JWT).
import { userOf } from '../base/context.js';
import type { WorkspaceDeps } from '../base/deps.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { requireOwnerOrAdmin } from '../keys/access.js';
import { listAuditLog } from './service.js';

export function auditHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<'listSvcAuditLog'> {
  return {
    async listSvcAuditLog({ params, query }, ctx) {
      await requireOwnerOrAdmin(deps.sql, userOf(ctx), params.workspace_id);
      return { status: 200, body: await listAuditLog(deps.sql, params.workspace_id, query ?? {}, deps.clock.now()) };
    },
  };
}
