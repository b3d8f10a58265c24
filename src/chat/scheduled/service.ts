// Scheduled messages: the creator's own objects (nobody else sees them: 404), changed only while PENDING. Every
// change commits with its outbox event; the timer is armed after the commit (src/chat/time).
import { sql } from 'kysely';
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows as allRows } from '../../platform/db/typed.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { roleIn } from '../base/membership.js';
import { messageErrors } from '../messages/access.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { Page } from '../base/paging.js';
import { armTimer } from '../base/timers/arm.js';
import { futureInstant } from '../base/timers/horizon.js';
import { chatDb } from '../base/tables.js';
import {
  scheduledColumns,
  scheduledEvent,
  scheduledView,
  type ScheduledRow,
  type ScheduledStates,
  type ScheduledStatus,
  type ScheduledView,
} from './views.js';

export interface CreateScheduledInput {
  text: string;
  sendAt: string;
  threadRootId?: string;
}

export interface UpdateScheduledInput {
  text?: string;
  sendAt?: string;
}

export interface ListScheduledQuery {
  status?: Exclude<ScheduledStatus, 'CANCELLED'>;
  roomId?: string;
  limit?: number;
  cursor?: string;
}

export const scheduledErrors = {
  notFound: () => chatErrors.notFound('Scheduled message', 'scheduled_message_not_found'),
  notPending: (status: ScheduledStatus) =>
    chatErrors.conflict(
      'scheduled_message_not_pending',
      `The scheduled message is ${status}; only a PENDING one can be changed or cancelled.`,
    ),
};

export class ScheduledMessageService {
  constructor(private readonly deps: ChatDeps) {}

  async create(caller: Caller, roomId: string, input: CreateScheduledInput): Promise<ScheduledView> {
    const sendAt = futureInstant(input.sendAt, this.deps.clock, 'body.sendAt');
    const now = this.deps.clock.now();
    const row = await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      const rootId = input.threadRootId === undefined ? null : await threadRoot(client, roomId, input.threadRootId.toLowerCase());
      const created = (await firstRow(
        client,
        chatDb
          .insertInto('scheduled_messages')
          .values({
            id: newId(),
            room_id: roomId,
            sender_id: caller.accountId,
            text: input.text,
            thread_root_id: rootId,
            send_at: sendAt,
            status: 'PENDING',
            created_at: now,
            updated_at: now,
          })
          .returning(scheduledColumns)
          .$narrowType<ScheduledStates>(),
      ))!;
      await emit(client, 'scheduled_message.created', scheduledEvent(created), accountsAudience([caller.accountId]));
      return created;
    });
    await armTimer(this.deps.queues, this.deps.clock, row.send_at);
    return scheduledView(row);
  }

  async list(caller: Caller, query: ListScheduledQuery): Promise<Page<ScheduledView>> {
    const list = `scheduled:${caller.accountId}:${query.status ?? 'PENDING'}:${query.roomId ?? ''}`;
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
        .selectFrom('scheduled_messages')
        .select(scheduledColumns)
        .where('sender_id', '=', caller.accountId)
        .where('status', '=', query.status ?? 'PENDING')
        .$if(query.roomId !== undefined, (qb) => qb.where('room_id', '=', query.roomId!))
        .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(send_at, id) > (${after!.at}::timestamptz, ${after!.id}::uuid)`))
        .orderBy('send_at')
        .orderBy('id')
        .limit(limit + 1)
        .$narrowType<ScheduledStates>(),
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(scheduledView),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ a: last.send_at.toISOString(), i: last.id }, list) : null,
    };
  }

  async get(caller: Caller, id: string): Promise<ScheduledView> {
    const row = await firstRow(this.deps.sql, own(caller, id));
    if (!row) throw scheduledErrors.notFound();
    return scheduledView(row);
  }

  /** Only fields that differ are written; a call that changes nothing answers the message and emits nothing. */
  async update(caller: Caller, id: string, input: UpdateScheduledInput): Promise<ScheduledView> {
    const sendAt = input.sendAt === undefined ? undefined : futureInstant(input.sendAt, this.deps.clock, 'body.sendAt');
    const now = this.deps.clock.now();
    const result = await inTransaction(this.deps.sql, async (client) => {
      const current = await this.lockOwn(client, caller, id);
      const changes: Record<string, unknown> = {};
      if (input.text !== undefined && input.text !== current.text) changes.text = input.text;
      if (sendAt !== undefined && sendAt.getTime() !== current.send_at.getTime()) changes.sendAt = sendAt.toISOString();
      if (Object.keys(changes).length === 0) return { row: current, moved: false, changed: false };
      const updated = (await firstRow(
        client,
        chatDb
          .updateTable('scheduled_messages')
          .set({ text: input.text ?? current.text, send_at: sendAt ?? current.send_at, updated_at: now })
          .where('id', '=', id)
          .returning(scheduledColumns)
          .$narrowType<ScheduledStates>(),
      ))!;
      await emit(client, 'scheduled_message.updated', { ...scheduledEvent(updated), changes }, accountsAudience([caller.accountId]));
      return { row: updated, moved: 'sendAt' in changes, changed: true };
    });
    if (result.moved) await armTimer(this.deps.queues, this.deps.clock, result.row.send_at);
    return scheduledView(result.row);
  }

  /** From the commit on the message is never sent and answers 404. */
  async cancel(caller: Caller, id: string): Promise<{ id: string; status: 'CANCELLED' }> {
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      await this.lockOwn(client, caller, id);
      const cancelled = await firstRow(
        client,
        chatDb
          .updateTable('scheduled_messages')
          .set({ status: 'CANCELLED', updated_at: now })
          .where('id', '=', id)
          .returning(scheduledColumns)
          .$narrowType<ScheduledStates>(),
      );
      await emit(client, 'scheduled_message.cancelled', scheduledEvent(cancelled!), accountsAudience([caller.accountId]));
    });
    return { id, status: 'CANCELLED' };
  }

  /** The caller's PENDING message, locked: a fire skips it until this transaction ends, then sees the change. */
  private async lockOwn(client: SqlClient, caller: Caller, id: string): Promise<ScheduledRow> {
    const row = await firstRow(client, own(caller, id).forUpdate());
    if (!row) throw scheduledErrors.notFound();
    if (row.status !== 'PENDING') throw scheduledErrors.notPending(row.status);
    return row;
  }
}

/** The caller's scheduled message by id; a cancelled one is gone for the API. */
const own = (caller: Caller, id: string) =>
  chatDb
    .selectFrom('scheduled_messages')
    .select(scheduledColumns)
    .where('id', '=', id)
    .where('sender_id', '=', caller.accountId)
    .where('status', '<>', 'CANCELLED')
    .$narrowType<ScheduledStates>();

/** The thread a message of the room belongs to (a reply names its root's thread); not a recalled root. */
async function threadRoot(client: SqlClient, roomId: string, messageId: string): Promise<string> {
  const row = await firstRow(
    client,
    chatDb
      .selectFrom('messages as m')
      .innerJoin('messages as r', (join) => join.on((eb) => eb('r.id', '=', eb.fn.coalesce('m.thread_root_id', 'm.id'))))
      .select((eb) => ['r.id as root_id', eb('r.recalled_at', 'is not', null).as('recalled')])
      .where('m.room_id', '=', roomId)
      .where('m.id', '=', messageId),
  );
  if (!row) throw chatErrors.notFound('Message', 'message_not_found');
  if (row.recalled) throw messageErrors.recalled();
  return row.root_id;
}
