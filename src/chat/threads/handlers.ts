import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { ThreadService } from './service.js';

export function threadHandlers(
  threads: ThreadService,
): ChatFeatureHandlers<
  | 'listThreads'
  | 'listThreadMessages'
  | 'followThread'
  | 'unfollowThread'
  | 'markThreadRead'
  | 'listThreadFollowers'
  | 'getUnreadThreadCount'
> {
  return {
    async listThreads({ params, query }, ctx) {
      const page = await threads.list(callerOf(ctx), params.roomId, query ?? {});
      return okList(ctx, page.items, page);
    },
    async listThreadMessages({ params, query }, ctx) {
      const page = await threads.page(callerOf(ctx), params.roomId, params.rootId, query ?? {});
      return okList(ctx, page.items, page);
    },
    async followThread({ params }, ctx) {
      return ok(ctx, await threads.follow(callerOf(ctx), params.rootId));
    },
    async unfollowThread({ params }, ctx) {
      await threads.unfollow(callerOf(ctx), params.rootId);
      return ok(ctx, { status: 'NOT_FOLLOWING' as const });
    },
    async markThreadRead({ params, body }, ctx) {
      return ok(ctx, await threads.markRead(callerOf(ctx), params.rootId, body.messageId));
    },
    async listThreadFollowers({ params }, ctx) {
      return ok(ctx, await threads.followers(callerOf(ctx), params.rootId));
    },
    async getUnreadThreadCount(_input, ctx) {
      return ok(ctx, await threads.unreadCount(callerOf(ctx)));
    },
  };
}
