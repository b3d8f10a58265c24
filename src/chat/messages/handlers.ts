import { callerOf } from '../context.js';
import { created, ok, okList } from '../envelope.js';
import type { ChatFeatureHandlers } from '../handler-types.js';
import type { MessageService } from './service.js';

export function messageHandlers(messages: MessageService): ChatFeatureHandlers<'listMessages' | 'sendMessage' | 'getMessage'> {
  return {
    async listMessages({ params, query }, ctx) {
      const page = await messages.scroll(callerOf(ctx), params.roomId, query ?? {});
      return okList(ctx, page.items, page);
    },
    async sendMessage({ params, body }, ctx) {
      const message = await messages.send(callerOf(ctx), params.roomId, body);
      return created(ctx, message, `/api/v1/rooms/${params.roomId}/messages/${message.id}`);
    },
    async getMessage({ params }, ctx) {
      return ok(ctx, await messages.get(callerOf(ctx), params.roomId, params.messageId));
    },
  };
}
