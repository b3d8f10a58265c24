import { platformAdminOf } from '../context.js';
import { ok } from '../envelope.js';
import type { ChatFeatureHandlers } from '../handler-types.js';
import type { AccountService } from './service.js';

/** Accounts are pushed by the core platform: every operation needs a platform administrator. */
export function accountHandlers(accounts: AccountService): ChatFeatureHandlers<'registerAccount' | 'updateAccountStatus' | 'updateAccountMetadata'> {
  return {
    async registerAccount({ body }, ctx) {
      platformAdminOf(ctx);
      return ok(ctx, await accounts.register(body));
    },
    async updateAccountStatus({ params, body }, ctx) {
      platformAdminOf(ctx);
      return ok(ctx, await accounts.setStatus(params.id, body.status));
    },
    async updateAccountMetadata({ params, body }, ctx) {
      platformAdminOf(ctx);
      return ok(ctx, await accounts.setMetadata(params.id, body));
    },
  };
}
