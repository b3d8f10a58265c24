// The REST side of typing and presence; the STOMP side is in the realtime gateway.
import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { PresenceService } from './service.js';
import type { TypingService } from './typing.js';

export function presenceHandlers(
  typing: TypingService,
  presence: PresenceService,
): ChatFeatureHandlers<'sendTyping' | 'setMyPresence' | 'listPresence'> {
  return {
    async sendTyping({ params }, ctx) {
      return ok(ctx, await typing.notify(callerOf(ctx).accountId, params.roomId));
    },
    async setMyPresence({ body }, ctx) {
      return ok(ctx, await presence.set(callerOf(ctx).accountId, body.status));
    },
    async listPresence({ query }, ctx) {
      return okList(ctx, await presence.list(callerOf(ctx).accountId, query.accountIds));
    },
  };
}
