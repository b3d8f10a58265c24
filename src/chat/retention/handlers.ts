import { callerOf } from '../base/context.js';
import { ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { RetentionService } from './service.js';

export function retentionHandlers(
  retention: RetentionService,
): ChatFeatureHandlers<'getCustomerRetention' | 'setCustomerRetention' | 'getRoomRetention' | 'setRoomRetention'> {
  return {
    async getCustomerRetention({ query }, ctx) {
      return ok(ctx, await retention.customer(callerOf(ctx), query));
    },
    async setCustomerRetention({ query, body }, ctx) {
      return ok(ctx, await retention.setCustomer(callerOf(ctx), query, body.days));
    },
    async getRoomRetention({ params }, ctx) {
      return ok(ctx, await retention.room(callerOf(ctx), params.roomId));
    },
    async setRoomRetention({ params, body }, ctx) {
      return ok(ctx, await retention.setRoom(callerOf(ctx), params.roomId, body.days));
    },
  };
}
