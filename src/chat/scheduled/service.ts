// Scheduled messages: the creator's own objects (nobody else sees them: 404), changed only while PENDING. Every
// change commits with its outbox event; the timer is armed after the commit (src/chat/time).
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
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
import { cancelScheduled, insertScheduled, ownScheduled, scheduledOf, threadRootOf, updateScheduled } from './queries.js';
import { scheduledEvent, scheduledView, type ScheduledRow, type ScheduledStatus, type ScheduledView } from './views.js';

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
      const created = (await insertScheduled(client, {
        id: newId(),
        roomId,
        senderId: caller.accountId,
        text: input.text,
        threadRootId: rootId,
        sendAt,
        at: now,
      }))!;
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
    const rows = await scheduledOf(
      this.deps.sql,
      caller.accountId,
      { status: query.status ?? 'PENDING', roomId: query.roomId },
      after,
      limit + 1,
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
    const row = await ownScheduled(this.deps.sql, caller.accountId, id);
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
      if (Object.keys(changes).length === 0) return { row: current, moved: false };
      const updated = (await updateScheduled(client, id, {
        text: input.text ?? current.text,
        sendAt: sendAt ?? current.send_at,
        at: now,
      }))!;
      await emit(client, 'scheduled_message.updated', { ...scheduledEvent(updated), changes }, accountsAudience([caller.accountId]));
      return { row: updated, moved: 'sendAt' in changes };
    });
    if (result.moved) await armTimer(this.deps.queues, this.deps.clock, result.row.send_at);
    return scheduledView(result.row);
  }

  /** From the commit on the message is never sent and answers 404. */
  async cancel(caller: Caller, id: string): Promise<{ id: string; status: 'CANCELLED' }> {
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      await this.lockOwn(client, caller, id);
      const cancelled = await cancelScheduled(client, id, now);
      await emit(client, 'scheduled_message.cancelled', scheduledEvent(cancelled!), accountsAudience([caller.accountId]));
    });
    return { id, status: 'CANCELLED' };
  }

  /** The caller's PENDING message, locked: a fire skips it until this transaction ends, then sees the change. */
  private async lockOwn(client: SqlClient, caller: Caller, id: string): Promise<ScheduledRow> {
    const row = await ownScheduled(client, caller.accountId, id, true);
    if (!row) throw scheduledErrors.notFound();
    if (row.status !== 'PENDING') throw scheduledErrors.notPending(row.status);
    return row;
  }
}

/** The thread a message of the room belongs to (a reply names its root's thread); not a recalled root. */
async function threadRoot(client: SqlClient, roomId: string, messageId: string): Promise<string> {
  const row = await threadRootOf(client, roomId, messageId);
  if (!row) throw chatErrors.notFound('Message', 'message_not_found');
  if (row.recalled) throw messageErrors.recalled();
  return row.root_id;
}
