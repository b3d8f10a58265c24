import { callerOf } from '../base/context.js';
import { ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import { accountScopeOf } from '../accounts/admin-gate.js';
import type { ErasureService } from './service.js';

/**
 * Erasure is account administration: the listener has already refused any caller that is neither a platform
 * administrator nor a SERVICE account (accounts/admin-gate.ts); a module's token reaches only its own accounts.
 */
export function erasureHandlers(erasures: ErasureService): ChatFeatureHandlers<'eraseAccount' | 'getErasure'> {
  return {
    async eraseAccount({ params, body }, ctx) {
      const caller = callerOf(ctx);
      return ok(ctx, await erasures.erase(params.accountId, body.messages, caller.accountId, accountScopeOf(caller)));
    },
    async getErasure({ params }, ctx) {
      return ok(ctx, await erasures.get(params.id, accountScopeOf(callerOf(ctx))));
    },
  };
}
