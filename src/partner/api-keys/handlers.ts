// API key management: by workspace members over bearer JWTs (/api/v1/workspaces/{id}/api-keys), and by a key
// itself (/api/v1/api-keys/current), whose revocation commits with its Idempotency-Key record through ctx.db.
import { expiryInstant } from '../../core/keys/expiry.js';
import { keyOf, userOf, whenCommitted } from '../base/context.js';
import type { PartnerDeps } from '../base/deps.js';
import { PartnerAppError } from '../base/errors.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import { listOf } from '../workspaces/views.js';
import { requireGrantable, requireKeyCell } from './access.js';
import { getApiKey, issueApiKey, listApiKeys, requireConfirmation, resolveScopes, revokeApiKey } from './service.js';

export type ApiKeyOperationId = 'listApiKeys' | 'createApiKey' | 'getApiKey' | 'revokeApiKey' | 'getCurrentApiKey' | 'revokeCurrentApiKey';

export function apiKeyHandlers(deps: PartnerDeps): PartnerFeatureHandlers<ApiKeyOperationId> {
  // Every node's gate forgets the keys it validated, so the revoked key is refused on the very next request.
  const forgetKeys = async () => deps.gateKeys?.invalidate();
  return {
    async listApiKeys({ params, query }, ctx) {
      const now = deps.clock.now();
      try {
        await requireKeyCell(ctx.db, userOf(ctx), params.workspace_id, 'view', now);
      } catch (err) {
        // Without external API access the page shows no keys rather than an error.
        if (err instanceof PartnerAppError && err.code === 'external_api_disabled') return { status: 200, body: listOf([]) };
        throw err;
      }
      return { status: 200, body: await listApiKeys(ctx.db, params.workspace_id, query ?? {}, now) };
    },
    async createApiKey({ params, body }, ctx) {
      const caller = userOf(ctx);
      const workspace = await requireKeyCell(ctx.db, caller, params.workspace_id, 'create', deps.clock.now());
      const scopes = resolveScopes(body);
      requireGrantable(workspace, scopes);
      const { view, key } = await issueApiKey(
        ctx.db,
        {
          workspaceId: params.workspace_id,
          name: body.name,
          scopes,
          environment: body.environment,
          expiresAt: body.expires_at === undefined ? null : expiryInstant(body.expires_at),
          createdBy: caller.accountId,
        },
        deps.clock,
      );
      return { status: 201, body: { ...view, key }, location: `/api/v1/workspaces/${params.workspace_id}/api-keys/${view.id}` };
    },
    async getApiKey({ params }, ctx) {
      const now = deps.clock.now();
      await requireKeyCell(ctx.db, userOf(ctx), params.workspace_id, 'view', now);
      return { status: 200, body: await getApiKey(ctx.db, params.workspace_id, params.key_id, now) };
    },
    async revokeApiKey({ params, body }, ctx) {
      const caller = userOf(ctx);
      const now = deps.clock.now();
      await requireKeyCell(ctx.db, caller, params.workspace_id, 'delete', now);
      requireConfirmation(body.confirm);
      const revoked = await revokeApiKey(ctx.db, params.workspace_id, params.key_id, caller.accountId, now);
      await whenCommitted(ctx, forgetKeys);
      return { status: 200, body: revoked };
    },
    async getCurrentApiKey(_input, ctx) {
      const key = keyOf(ctx);
      return { status: 200, body: await getApiKey(ctx.db, key.workspaceId, key.keyId, deps.clock.now()) };
    },
    async revokeCurrentApiKey({ body }, ctx) {
      const key = keyOf(ctx);
      requireConfirmation(body.confirm);
      const revoked = await revokeApiKey(ctx.db, key.workspaceId, key.keyId, null, deps.clock.now());
      await whenCommitted(ctx, forgetKeys);
      return { status: 200, body: revoked };
    },
  };
}
