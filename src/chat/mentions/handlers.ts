import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { MentionInboxService } from './inbox.js';

export function mentionHandlers(inbox: MentionInboxService): ChatFeatureHandlers<'listMentions' | 'markMentionsRead' | 'markMentionRead'> {
  return {
    async listMentions({ query }, ctx) {
      const page = await inbox.list(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async markMentionsRead({ body }, ctx) {
      return ok(ctx, await inbox.markAllRead(callerOf(ctx), body?.roomId));
    },
    async markMentionRead({ params }, ctx) {
      return ok(ctx, await inbox.markRead(callerOf(ctx), params.messageId));
    },
  };
}
