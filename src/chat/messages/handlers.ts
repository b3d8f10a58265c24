import { callerOf } from '../base/context.js';
import { created, ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { MessageService, SendInput } from './service.js';

/**
 * The Idempotency-Key header and clientMessageId are one key space: the header stands in for a missing
 * clientMessageId. Given both, clientMessageId is the key (it is what the message stores and the response shows).
 */
function withIdempotencyKey(body: SendInput, key: string | undefined): SendInput {
  if (key === undefined || body.clientMessageId !== undefined) return body;
  return { ...body, clientMessageId: key };
}

export function messageHandlers(messages: MessageService): ChatFeatureHandlers<'listMessages' | 'sendMessage' | 'getMessage'> {
  return {
    async listMessages({ params, query }, ctx) {
      const page = await messages.scroll(callerOf(ctx), params.roomId, query ?? {});
      return okList(ctx, page.items, page);
    },
    async sendMessage({ params, body }, ctx) {
      const message = await messages.send(callerOf(ctx), params.roomId, withIdempotencyKey(body, ctx.idempotencyKey));
      return created(ctx, message, `/api/v1/rooms/${params.roomId}/messages/${message.id}`);
    },
    async getMessage({ params }, ctx) {
      return ok(ctx, await messages.get(callerOf(ctx), params.roomId, params.messageId));
    },
  };
}
