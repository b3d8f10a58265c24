// Self reminders: the owner's own objects (nobody else sees them: 404), changed only while ACTIVE. The reminder
// bot posts them into the owner's reminder room (src/chat/reminders/fire.ts); every change commits with its event
// and the timer of the next occurrence is armed after the commit.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { accountsAudience, emit } from '../events/emit.js';
import { reminderBotId } from '../rooms/reminder-bot.js';
import type { Page } from '../base/paging.js';
import type { RoomService } from '../rooms/service.js';
import { armTimer } from '../base/timers/arm.js';
import { futureInstant } from '../base/timers/horizon.js';
import { nextOccurrence, normalizeRecurrence, type Recurrence } from './recurrence.js';
import { activeReminders, cancelReminder, insertReminder, ownReminder, updateReminder, type ReminderSchedule } from './queries.js';
import { reminderEvent, reminderView, type ReminderRow, type ReminderStatus, type ReminderView } from './views.js';

export interface ReminderInput {
  text?: string;
  remindAt?: string;
  recurrence?: Recurrence;
}

export const reminderErrors = {
  notFound: () => chatErrors.notFound('Reminder', 'reminder_not_found'),
  notActive: (status: ReminderStatus) =>
    chatErrors.conflict('reminder_not_active', `The reminder is ${status}; only an ACTIVE one can be changed or cancelled.`),
};

function sameRule(a: Recurrence | null, b: Recurrence | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.frequency === b.frequency &&
    a.time === b.time &&
    a.timeZone === b.timeZone &&
    (a.dayOfMonth ?? null) === (b.dayOfMonth ?? null) &&
    (a.daysOfWeek ?? []).join() === (b.daysOfWeek ?? []).join()
  );
}

export class ReminderService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly rooms: RoomService,
  ) {}

  /** remindAt or recurrence (exactly one), as the reminder's schedule from now. */
  private schedule(input: ReminderInput): ReminderSchedule | undefined {
    if (input.remindAt !== undefined && input.recurrence !== undefined) {
      throw chatErrors.invalid('body.recurrence', 'cannot be combined with body.remindAt: a reminder is one-time or recurring');
    }
    if (input.remindAt !== undefined) {
      const at = futureInstant(input.remindAt, this.deps.clock, 'body.remindAt');
      return { kind: 'ONE_TIME', remindAt: at, recurrence: null, nextFireAt: at };
    }
    if (input.recurrence !== undefined) {
      const rule = normalizeRecurrence(input.recurrence, 'body.recurrence');
      return { kind: 'RECURRING', remindAt: null, recurrence: rule, nextFireAt: nextOccurrence(rule, this.deps.clock.now()) };
    }
    return undefined;
  }

  async create(caller: Caller, input: ReminderInput & { text: string }): Promise<ReminderView> {
    const schedule = this.schedule(input);
    if (!schedule) throw chatErrors.invalid('body.remindAt', 'or body.recurrence is required');
    // The reminder room exists from now on, so the sidebar shows it before the first reminder fires.
    const room = await this.rooms.getOrCreateReminder(caller);
    const now = this.deps.clock.now();
    const row = await inTransaction(this.deps.sql, async (client) => {
      const created = (await insertReminder(client, {
        id: newId(),
        ownerId: caller.accountId,
        roomId: room.id,
        botId: reminderBotId(caller.moduleCode, caller.customerAccountId),
        text: input.text,
        schedule,
        at: now,
      }))!;
      await emit(client, 'reminder.created', reminderEvent(created), accountsAudience([caller.accountId]));
      return created;
    });
    await armTimer(this.deps.queues, this.deps.clock, row.next_fire_at!);
    return reminderView(row);
  }

  /** The caller's ACTIVE reminders, soonest first. */
  async list(caller: Caller, query: { limit?: number; cursor?: string }): Promise<Page<ReminderView>> {
    const list = `reminders:${caller.accountId}`;
    const limit = query.limit ?? 50;
    let after: { at: unknown; id: string } | undefined;
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      const at = cursorInstant(c?.a);
      const id = cursorUuid(c?.i);
      if (at === null || id === null) throw chatErrors.invalidCursor('query.cursor');
      after = { at, id };
    }
    const rows = await activeReminders(this.deps.sql, caller.accountId, after, limit + 1);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(reminderView),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ a: last.next_fire_at!.toISOString(), i: last.id }, list) : null,
    };
  }

  async get(caller: Caller, id: string): Promise<ReminderView> {
    const row = await ownReminder(this.deps.sql, caller.accountId, id);
    if (!row) throw reminderErrors.notFound();
    return reminderView(row);
  }

  /** Only what differs is written; a new schedule starts from now. A call that changes nothing emits nothing. */
  async update(caller: Caller, id: string, input: ReminderInput): Promise<ReminderView> {
    const schedule = this.schedule(input);
    const now = this.deps.clock.now();
    const result = await inTransaction(this.deps.sql, async (client) => {
      const current = await this.lockActive(client, caller, id);
      const changes: Record<string, unknown> = {};
      if (input.text !== undefined && input.text !== current.text) changes.text = input.text;
      const rescheduled =
        schedule !== undefined &&
        (schedule.kind !== current.kind ||
          (schedule.remindAt?.getTime() ?? null) !== (current.remind_at?.getTime() ?? null) ||
          !sameRule(schedule.recurrence, current.recurrence));
      if (rescheduled) {
        changes.kind = schedule.kind;
        if (schedule.remindAt) changes.remindAt = schedule.remindAt.toISOString();
        if (schedule.recurrence) changes.recurrence = schedule.recurrence;
      }
      if (Object.keys(changes).length === 0) return { row: current, rescheduled: false };
      const next = rescheduled
        ? schedule
        : { kind: current.kind, remindAt: current.remind_at, recurrence: current.recurrence, nextFireAt: current.next_fire_at! };
      const updated = (await updateReminder(client, id, { text: input.text ?? current.text, schedule: next, at: now }))!;
      await emit(client, 'reminder.updated', { ...reminderEvent(updated), changes }, accountsAudience([caller.accountId]));
      return { row: updated, rescheduled };
    });
    if (result.rescheduled) await armTimer(this.deps.queues, this.deps.clock, result.row.next_fire_at!);
    return reminderView(result.row);
  }

  /** From the commit on the reminder never fires again and answers 404. */
  async cancel(caller: Caller, id: string): Promise<{ id: string; status: 'CANCELLED' }> {
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      await this.lockActive(client, caller, id);
      const cancelled = await cancelReminder(client, id, now);
      await emit(client, 'reminder.cancelled', reminderEvent(cancelled!), accountsAudience([caller.accountId]));
    });
    return { id, status: 'CANCELLED' };
  }

  /** The caller's ACTIVE reminder, locked: a fire skips it until this transaction ends, then sees the change. */
  private async lockActive(client: SqlClient, caller: Caller, id: string): Promise<ReminderRow> {
    const row = await ownReminder(client, caller.accountId, id, true);
    if (!row) throw reminderErrors.notFound();
    if (row.status !== 'ACTIVE') throw reminderErrors.notActive(row.status);
    return row;
  }
}
