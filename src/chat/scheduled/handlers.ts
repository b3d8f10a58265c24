import { callerOf } from '../base/context.js';
import { created, ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { ScheduledMessageService } from './service.js';

type ScheduledOperations =
  'createScheduledMessage' | 'listScheduledMessages' | 'getScheduledMessage' | 'updateScheduledMessage' | 'deleteScheduledMessage';

// Path ids are compared in code as well as in SQL, so they are taken in lower case.
const id = (raw: string) => raw.toLowerCase();

export function scheduledHandlers(scheduled: ScheduledMessageService): ChatFeatureHandlers<ScheduledOperations> {
  return {
    async createScheduledMessage({ params, body }, ctx) {
      const message = await scheduled.create(callerOf(ctx), id(params.roomId), body);
      return created(ctx, message, `/api/v1/messages/scheduled/${message.id}`);
    },
    async listScheduledMessages({ query }, ctx) {
      const page = await scheduled.list(callerOf(ctx), { ...query, roomId: query?.roomId?.toLowerCase() });
      return okList(ctx, page.items, page);
    },
    async getScheduledMessage({ params }, ctx) {
      return ok(ctx, await scheduled.get(callerOf(ctx), id(params.id)));
    },
    async updateScheduledMessage({ params, body }, ctx) {
      return ok(ctx, await scheduled.update(callerOf(ctx), id(params.id), body));
    },
    async deleteScheduledMessage({ params }, ctx) {
      return ok(ctx, await scheduled.cancel(callerOf(ctx), id(params.id)));
    },
  };
}
