import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { PinService } from './service.js';

export function pinHandlers(
  pins: PinService,
): ChatFeatureHandlers<'pinMessage' | 'unpinMessage' | 'listPinnedMessages' | 'snapMessage' | 'getSnap' | 'removeSnap'> {
  return {
    async pinMessage({ params, query }, ctx) {
      return ok(ctx, await pins.pin(callerOf(ctx), params.roomId, params.messageId, query?.scope ?? 'ROOM'));
    },
    async unpinMessage({ params, query }, ctx) {
      return ok(ctx, await pins.unpin(callerOf(ctx), params.roomId, params.messageId, query?.scope ?? 'ROOM'));
    },
    async listPinnedMessages({ params }, ctx) {
      return okList(ctx, await pins.list(callerOf(ctx), params.roomId));
    },
    async snapMessage({ params }, ctx) {
      return ok(ctx, await pins.snap(callerOf(ctx), params.roomId, params.messageId));
    },
    async getSnap({ params }, ctx) {
      return ok(ctx, await pins.getSnap(callerOf(ctx), params.roomId));
    },
    async removeSnap({ params }, ctx) {
      return ok(ctx, await pins.removeSnap(callerOf(ctx), params.roomId));
    },
  };
}
