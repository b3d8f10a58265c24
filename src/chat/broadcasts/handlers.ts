import { callerOf, platformAdminOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { BroadcastService } from './service.js';

export function broadcastHandlers(
  broadcasts: BroadcastService,
): ChatFeatureHandlers<
  'createBroadcast' | 'createTargetedBroadcast' | 'listMyBroadcasts' | 'getBroadcastUnreadCount' | 'markBroadcastsRead'
> {
  return {
    async createBroadcast({ body }, ctx) {
      return ok(ctx, await broadcasts.create(platformAdminOf(ctx), body, null));
    },
    async createTargetedBroadcast({ body }, ctx) {
      return ok(ctx, await broadcasts.create(platformAdminOf(ctx), body, body.audience.modules));
    },
    async listMyBroadcasts({ query }, ctx) {
      const page = await broadcasts.feed(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async getBroadcastUnreadCount(_input, ctx) {
      return ok(ctx, await broadcasts.readState(callerOf(ctx)));
    },
    async markBroadcastsRead({ body }, ctx) {
      return ok(ctx, await broadcasts.markRead(callerOf(ctx), body?.id ?? null));
    },
  };
}
