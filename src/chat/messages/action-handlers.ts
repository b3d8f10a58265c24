import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { ForwardService } from './forward.js';
import type { MessageLifecycleService } from './lifecycle.js';
import type { ReactionService } from './reactions.js';

export interface MessageActionServices {
  lifecycle: MessageLifecycleService;
  reactions: ReactionService;
  forward: ForwardService;
}

export function messageActionHandlers(
  s: MessageActionServices,
): ChatFeatureHandlers<
  | 'editMessage'
  | 'hideMessage'
  | 'restoreMessage'
  | 'recallMessage'
  | 'listReactions'
  | 'addReaction'
  | 'removeReaction'
  | 'forwardMessages'
> {
  return {
    async editMessage({ params, body }, ctx) {
      return ok(ctx, await s.lifecycle.edit(callerOf(ctx), params.roomId, params.messageId, body.text));
    },
    async hideMessage({ params }, ctx) {
      return ok(ctx, await s.lifecycle.hide(callerOf(ctx), params.roomId, params.messageId));
    },
    async restoreMessage({ params }, ctx) {
      return ok(ctx, await s.lifecycle.restore(callerOf(ctx), params.roomId, params.messageId));
    },
    async recallMessage({ params }, ctx) {
      return ok(ctx, await s.lifecycle.recall(callerOf(ctx), params.roomId, params.messageId));
    },
    async listReactions({ params }, ctx) {
      return okList(ctx, await s.reactions.list(callerOf(ctx), params.roomId, params.messageId));
    },
    async addReaction({ params, body }, ctx) {
      return ok(ctx, await s.reactions.add(callerOf(ctx), params.roomId, params.messageId, body.emoji));
    },
    async removeReaction({ params }, ctx) {
      return ok(ctx, await s.reactions.remove(callerOf(ctx), params.roomId, params.messageId, params.emoji));
    },
    async forwardMessages({ params, body }, ctx) {
      return okList(ctx, await s.forward.forward(callerOf(ctx), params.roomId, body));
    },
  };
}
