// Self reminders: the owner's own objects (nobody else sees them: 404), changed only while ACTIVE. The reminder
// bot posts them into the owner's reminder room (src/chat/reminders/fire.ts); every change commits with its event
// and the timer of the next occurrence is armed after the commit.
import { sql } from 'kysely';
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows as allRows } from '../../platform/db/typed.js';
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
import { chatDb } from '../base/tables.js';
import { nextOccurrence, normalizeRecurrence, type Recurrence } from './recurrence.js';
import {
  reminderColumns,
  reminderEvent,
  reminderView,
  type ReminderKind,
  type ReminderRow,
  type ReminderStates,
  type ReminderStatus,
  type ReminderView,
} from './views.js';

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

interface Schedule {
  kind: ReminderKind;
  remindAt: Date | null;
  recurrence: Recurrence | null;
  nextFireAt: Date;
}

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

/** The caller's reminder by id; a cancelled one is gone for the API. */
const own = (caller: Caller, id: string) =>
  chatDb
    .selectFrom('reminders')
    .select(reminderColumns)
    .where('id', '=', id)
    .where('owner_id', '=', caller.accountId)
    .where('status', '<>', 'CANCELLED')
    .$narrowType<ReminderStates>();

export class ReminderService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly rooms: RoomService,
  ) {}

  /** remindAt or recurrence (exactly one), as the reminder's schedule from now. */
  private schedule(input: ReminderInput): Schedule | undefined {
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
      const created = (await firstRow(
        client,
        chatDb
          .insertInto('reminders')
          .values({
            id: newId(),
            owner_id: caller.accountId,
            room_id: room.id,
            bot_id: reminderBotId(caller.moduleCode, caller.customerAccountId),
            text: input.text,
            kind: schedule.kind,
            remind_at: schedule.remindAt,
            recurrence: schedule.recurrence === null ? null : JSON.stringify(schedule.recurrence),
            status: 'ACTIVE',
            next_fire_at: schedule.nextFireAt,
            created_at: now,
            updated_at: now,
          })
          .returning(reminderColumns)
          .$narrowType<ReminderStates>(),
      ))!;
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
    const rows = await allRows(
      this.deps.sql,
      chatDb
        .selectFrom('reminders')
        .select(reminderColumns)
        .where('owner_id', '=', caller.accountId)
        .where('status', '=', 'ACTIVE')
        .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(next_fire_at, id) > (${after!.at}::timestamptz, ${after!.id}::uuid)`))
        .orderBy('next_fire_at')
        .orderBy('id')
        .limit(limit + 1)
        .$narrowType<ReminderStates>(),
    );
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
    const row = await firstRow(this.deps.sql, own(caller, id));
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
      if (Object.keys(changes).length === 0) return { row: current, changed: false, rescheduled: false };
      const next = rescheduled
        ? schedule
        : { kind: current.kind, remindAt: current.remind_at, recurrence: current.recurrence, nextFireAt: current.next_fire_at! };
      const updated = (await firstRow(
        client,
        chatDb
          .updateTable('reminders')
          .set({
            text: input.text ?? current.text,
            kind: next.kind,
            remind_at: next.remindAt,
            recurrence: next.recurrence === null ? null : JSON.stringify(next.recurrence),
            next_fire_at: next.nextFireAt,
            updated_at: now,
          })
          .where('id', '=', id)
          .returning(reminderColumns)
          .$narrowType<ReminderStates>(),
      ))!;
      await emit(client, 'reminder.updated', { ...reminderEvent(updated), changes }, accountsAudience([caller.accountId]));
      return { row: updated, changed: true, rescheduled };
    });
    if (result.rescheduled) await armTimer(this.deps.queues, this.deps.clock, result.row.next_fire_at!);
    return reminderView(result.row);
  }

  /** From the commit on the reminder never fires again and answers 404. */
  async cancel(caller: Caller, id: string): Promise<{ id: string; status: 'CANCELLED' }> {
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      await this.lockActive(client, caller, id);
      const cancelled = await firstRow(
        client,
        chatDb
          .updateTable('reminders')
          .set({ status: 'CANCELLED', next_fire_at: null, updated_at: now })
          .where('id', '=', id)
          .returning(reminderColumns)
          .$narrowType<ReminderStates>(),
      );
      await emit(client, 'reminder.cancelled', reminderEvent(cancelled!), accountsAudience([caller.accountId]));
    });
    return { id, status: 'CANCELLED' };
  }

  /** The caller's ACTIVE reminder, locked: a fire skips it until this transaction ends, then sees the change. */
  private async lockActive(client: SqlClient, caller: Caller, id: string): Promise<ReminderRow> {
    const row = await firstRow(client, own(caller, id).forUpdate());
    if (!row) throw reminderErrors.notFound();
    if (row.status !== 'ACTIVE') throw reminderErrors.notActive(row.status);
    return row;
  }
}
