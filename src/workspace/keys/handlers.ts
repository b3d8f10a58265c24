// Key administration by the workspace's Owner and Admin over bearer JWTs (/api/v1/workspaces/{id}/svc-keys).
import { expiryInstant } from '../../core/keys/expiry.js';
import type { WorkspaceDeps } from '../base/deps.js';
import { userOf } from '../base/context.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { requireOwnerOrAdmin } from './access.js';
import { getSvcKey, issueSvcKey, listSvcKeys, revokeSvcKey } from './service.js';

export type SvcKeyOperationId = 'createSvcKey' | 'listSvcKeys' | 'getSvcKey' | 'revokeSvcKey';

export function svcKeyHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<SvcKeyOperationId> {
  return {
    async createSvcKey({ params, body }, ctx) {
      const caller = userOf(ctx);
      await requireOwnerOrAdmin(deps.sql, caller, params.workspace_id);
      const { view, key } = await issueSvcKey(
        deps.sql,
        {
          workspaceId: params.workspace_id,
          name: body.name,
          description: body.description ?? null,
          scopes: body.scopes,
          ipAllowList: body.ip_allow_list ?? [],
          environment: body.environment,
          expiresAt: body.expires_at == null ? null : expiryInstant(body.expires_at),
          createdBy: caller.accountId,
        },
        deps.clock,
      );
      return { status: 201, body: { ...view, key }, location: `/api/v1/workspaces/${params.workspace_id}/svc-keys/${view.id}` };
    },
    async listSvcKeys({ params, query }, ctx) {
      await requireOwnerOrAdmin(deps.sql, userOf(ctx), params.workspace_id);
      return { status: 200, body: await listSvcKeys(deps.sql, params.workspace_id, query ?? {}, deps.clock.now()) };
    },
    async getSvcKey({ params }, ctx) {
      await requireOwnerOrAdmin(deps.sql, userOf(ctx), params.workspace_id);
      return { status: 200, body: await getSvcKey(deps.sql, params.workspace_id, params.key_id, deps.clock.now()) };
    },
    async revokeSvcKey({ params }, ctx) {
      const caller = userOf(ctx);
      await requireOwnerOrAdmin(deps.sql, caller, params.workspace_id);
      const revoked = await revokeSvcKey(deps.sql, params.workspace_id, params.key_id, caller.accountId, deps.clock.now());
      // Every node's gate forgets the keys it validated, so the revoked key is refused on the very next request.
      await deps.gateKeys?.invalidate();
      return { status: 200, body: revoked };
    },
  };
}
