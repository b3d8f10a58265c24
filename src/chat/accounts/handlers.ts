import { callerOf } from '../base/context.js';
import { ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import { accountScopeOf } from './admin-gate.js';
import type { AccountService } from './service.js';

/**
 * Accounts are pushed by the core platform or by their own module: the listener has already refused any caller that
 * is neither a platform administrator nor a SERVICE account (admin-gate.ts); a module's token reaches only the
 * accounts of its module and customer.
 */
export function accountHandlers(
  accounts: AccountService,
): ChatFeatureHandlers<'registerAccount' | 'updateAccountStatus' | 'updateAccountMetadata'> {
  return {
    async registerAccount({ body }, ctx) {
      return ok(ctx, await accounts.register(body, accountScopeOf(callerOf(ctx))));
    },
    async updateAccountStatus({ params, body }, ctx) {
      return ok(ctx, await accounts.setStatus(params.id, body.status, accountScopeOf(callerOf(ctx))));
    },
    async updateAccountMetadata({ params, body }, ctx) {
      return ok(ctx, await accounts.setMetadata(params.id, body, accountScopeOf(callerOf(ctx))));
    },
  };
}
