// Scheduled messages: the creator's own objects (nobody else sees them: 404), changed only while PENDING. Every
// change commits with its outbox event; the timer is armed after the commit (src/chat/time).
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { roleIn } from '../rooms/membership.js';
import { messageErrors } from '../messages/access.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { Page } from '../rooms/service.js';
import { armTimer } from '../time/arm.js';
import { futureInstant } from '../time/horizon.js';
import { scheduledColumns, scheduledEvent, scheduledView, type ScheduledRow, type ScheduledStatus, type ScheduledView } from './views.js';

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
      const { rows } = await client.query<ScheduledRow>(
        `insert into scheduled_messages (id, room_id, sender_id, text, thread_root_id, send_at, status, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, 'PENDING', $7, $7) returning ${scheduledColumns}`,
        [newId(), roomId, caller.accountId, input.text, rootId, sendAt, now],
      );
      const created = rows[0]!;
      await emit(client, 'scheduled_message.created', scheduledEvent(created), accountsAudience([caller.accountId]));
      return created;
    });
    this.deps.queues.requestOutboxDrain();
    await armTimer(this.deps.queues, this.deps.clock, row.send_at);
    return scheduledView(row);
  }

  async list(caller: Caller, query: ListScheduledQuery): Promise<Page<ScheduledView>> {
    const list = `scheduled:${caller.accountId}:${query.status ?? 'PENDING'}:${query.roomId ?? ''}`;
    const limit = query.limit ?? 50;
    const params: unknown[] = [caller.accountId, query.status ?? 'PENDING'];
    let filter = '';
    if (query.roomId !== undefined) {
      params.push(query.roomId);
      filter += ` and room_id = $${params.length}`;
    }
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      const at = cursorInstant(c?.a);
      const id = cursorUuid(c?.i);
      if (at === null || id === null) throw chatErrors.invalidCursor('query.cursor');
      params.push(at, id);
      filter += ` and (send_at, id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
    }
    params.push(limit + 1);
    const { rows } = await this.deps.sql.query<ScheduledRow>(
      `select ${scheduledColumns} from scheduled_messages
        where sender_id = $1 and status = $2 ${filter} order by send_at, id limit $${params.length}`,
      params,
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
    const { rows } = await this.deps.sql.query<ScheduledRow>(
      `select ${scheduledColumns} from scheduled_messages where id = $1 and sender_id = $2 and status <> 'CANCELLED'`,
      [id, caller.accountId],
    );
    if (!rows[0]) throw scheduledErrors.notFound();
    return scheduledView(rows[0]);
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
      const { rows } = await client.query<ScheduledRow>(
        `update scheduled_messages set text = $2, send_at = $3, updated_at = $4 where id = $1 returning ${scheduledColumns}`,
        [id, input.text ?? current.text, sendAt ?? current.send_at, now],
      );
      const updated = rows[0]!;
      await emit(client, 'scheduled_message.updated', { ...scheduledEvent(updated), changes }, accountsAudience([caller.accountId]));
      return { row: updated, moved: 'sendAt' in changes, changed: true };
    });
    if (result.changed) this.deps.queues.requestOutboxDrain();
    if (result.moved) await armTimer(this.deps.queues, this.deps.clock, result.row.send_at);
    return scheduledView(result.row);
  }

  /** From the commit on the message is never sent and answers 404. */
  async cancel(caller: Caller, id: string): Promise<{ id: string; status: 'CANCELLED' }> {
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      await this.lockOwn(client, caller, id);
      const { rows } = await client.query<ScheduledRow>(
        `update scheduled_messages set status = 'CANCELLED', updated_at = $2 where id = $1 returning ${scheduledColumns}`,
        [id, now],
      );
      await emit(client, 'scheduled_message.cancelled', scheduledEvent(rows[0]!), accountsAudience([caller.accountId]));
    });
    this.deps.queues.requestOutboxDrain();
    return { id, status: 'CANCELLED' };
  }

  /** The caller's PENDING message, locked: a fire skips it until this transaction ends, then sees the change. */
  private async lockOwn(client: SqlClient, caller: Caller, id: string): Promise<ScheduledRow> {
    const { rows } = await client.query<ScheduledRow>(
      `select ${scheduledColumns} from scheduled_messages where id = $1 and sender_id = $2 and status <> 'CANCELLED' for update`,
      [id, caller.accountId],
    );
    const row = rows[0];
    if (!row) throw scheduledErrors.notFound();
    if (row.status !== 'PENDING') throw scheduledErrors.notPending(row.status);
    return row;
  }
}

/** The thread a message of the room belongs to (a reply names its root's thread); not a recalled root. */
async function threadRoot(client: SqlClient, roomId: string, messageId: string): Promise<string> {
  const { rows } = await client.query<{ root_id: string; recalled: boolean }>(
    `select r.id as root_id, r.recalled_at is not null as recalled
       from messages m join messages r on r.id = coalesce(m.thread_root_id, m.id)
      where m.room_id = $1 and m.id = $2`,
    [roomId, messageId],
  );
  const row = rows[0];
  if (!row) throw chatErrors.notFound('Message', 'message_not_found');
  if (row.recalled) throw messageErrors.recalled();
  return row.root_id;
}
