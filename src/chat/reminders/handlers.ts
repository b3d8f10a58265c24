import { callerOf } from '../base/context.js';
import { created, ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { ReminderService } from './service.js';

type ReminderOperations = 'listReminders' | 'createReminder' | 'getReminder' | 'updateReminder' | 'deleteReminder';

// Path ids are compared in code as well as in SQL, so they are taken in lower case.
const id = (raw: string) => raw.toLowerCase();

export function reminderHandlers(reminders: ReminderService): ChatFeatureHandlers<ReminderOperations> {
  return {
    async listReminders({ query }, ctx) {
      const page = await reminders.list(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async createReminder({ body }, ctx) {
      const reminder = await reminders.create(callerOf(ctx), body);
      return created(ctx, reminder, `/api/v1/reminders/${reminder.id}`);
    },
    async getReminder({ params }, ctx) {
      return ok(ctx, await reminders.get(callerOf(ctx), id(params.id)));
    },
    async updateReminder({ params, body }, ctx) {
      return ok(ctx, await reminders.update(callerOf(ctx), id(params.id), body));
    },
    async deleteReminder({ params }, ctx) {
      return ok(ctx, await reminders.cancel(callerOf(ctx), id(params.id)));
    },
  };
}
