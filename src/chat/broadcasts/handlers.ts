import { callerOf, platformAdminOf } from '../context.js';
import { ok } from '../envelope.js';
import type { ChatFeatureHandlers } from '../handler-types.js';
import type { BroadcastService } from './service.js';

export function broadcastHandlers(
  broadcasts: BroadcastService,
): ChatFeatureHandlers<'createBroadcast' | 'createTargetedBroadcast' | 'listMyBroadcasts' | 'markBroadcastsRead'> {
  return {
    async createBroadcast({ body }, ctx) {
      return ok(ctx, await broadcasts.create(platformAdminOf(ctx), body, null));
    },
    async createTargetedBroadcast({ body }, ctx) {
      return ok(ctx, await broadcasts.create(platformAdminOf(ctx), body, body.audience.modules));
    },
    async listMyBroadcasts({ query }, ctx) {
      return ok(ctx, await broadcasts.feed(callerOf(ctx), query ?? {}));
    },
    async markBroadcastsRead({ body }, ctx) {
      return ok(ctx, await broadcasts.markRead(callerOf(ctx), body?.id ?? null));
    },
  };
}
