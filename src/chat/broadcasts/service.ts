// Broadcasts: platform administrators send to every module or to listed modules; each user reads a feed of what
// was addressed to it with an unread count, and moves a read mark that never goes backwards.
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInt, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatError, chatErrors } from '../errors.js';
import { accountsAudience, broadcastAudience, emit } from '../events/emit.js';
import type { Page } from '../rooms/service.js';
import { addressedTo, broadcastView, type BroadcastFeedItem, type BroadcastRow, type BroadcastView } from './views.js';

export interface CreateBroadcastInput {
  title?: string;
  text: string;
}

export interface ReadState {
  lastReadId: string | null;
  unreadCount: number;
}

// Broadcast creations take this transaction-scoped advisory lock, so that they commit in seq order and a read mark
// at seq n never passes over a broadcast with a lower seq that commits later.
const CREATION_LOCK = 0x62726f61;

const broadcastNotFound = () => chatErrors.notFound('Broadcast', 'broadcast_not_found');

export class BroadcastService {
  constructor(private readonly deps: ChatDeps) {}

  /** modules null: every user of every module. Unknown modules refuse the whole request before anything is written. */
  async create(caller: Caller, input: CreateBroadcastInput, requestedModules: string[] | null): Promise<BroadcastView> {
    const modules = requestedModules === null ? null : [...new Set(requestedModules)];
    if (requestedModules !== null && modules !== null) {
      const { rows } = await this.deps.sql.query<{ code: string }>('select code from modules where code = any($1::text[])', [modules]);
      const known = new Set(rows.map((r) => r.code));
      const details = requestedModules.flatMap((code, i) =>
        known.has(code) ? [] : [{ location: `body.audience.modules[${i}]`, message: `names no module ("${code}")` }],
      );
      if (details.length > 0) {
        throw chatError(
          400,
          'validation_failed',
          `The request is invalid: ${details.map((d) => `${d.location} ${d.message}`).join('; ')}; nothing was sent`,
          details,
        );
      }
    }
    const id = newId();
    const now = this.deps.clock.now();
    const row = await inTransaction(this.deps.sql, async (client) => {
      await client.query('select pg_advisory_xact_lock($1)', [CREATION_LOCK]);
      const { rows } = await client.query<BroadcastRow>(
        `insert into broadcasts (id, title, text, modules, created_by, created_at) values ($1, $2, $3, $4, $5, $6)
         returning id, seq, title, text, modules, created_by, created_at`,
        [id, input.title ?? null, input.text, modules, caller.accountId, now],
      );
      await emit(
        client,
        'broadcast.created',
        { broadcastId: id, title: input.title ?? null, text: input.text, createdBy: caller.accountId, createdAt: now.toISOString() },
        broadcastAudience(modules ?? 'all'),
      );
      return rows[0]!;
    });
    this.deps.queues.requestOutboxDrain();
    return broadcastView(row);
  }

  /** Newest first; keyset on seq. */
  async feed(caller: Caller, query: { limit?: number; cursor?: string }): Promise<Page<BroadcastFeedItem>> {
    const list = `broadcasts:${caller.accountId}`;
    const limit = query.limit ?? 50;
    const params: unknown[] = [caller.accountId, caller.moduleCode];
    let filter = '';
    if (query.cursor !== undefined) {
      const seq = cursorInt(decodeCursor(query.cursor, list)?.s, 1);
      if (seq === null) throw chatErrors.invalidCursor('query.cursor');
      params.push(seq);
      filter = `and b.seq < $${params.length}`;
    }
    params.push(limit + 1);
    const { rows } = await this.deps.sql.query<BroadcastRow & { read: boolean }>(
      `select b.id, b.seq, b.title, b.text, b.modules, b.created_by, b.created_at, b.seq <= coalesce(r.last_read_seq, 0) as read
         from accounts me left join broadcast_reads r on r.account_id = me.id
         join broadcasts b on ${addressedTo}
        where me.id = $1 ${filter}
        order by b.seq desc limit $${params.length}`,
      params,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({ ...broadcastView(r), read: r.read })),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ s: last.seq }, list) : null,
    };
  }

  /** Up to the broadcast `id` of the caller's feed, or the newest one when null; the mark only moves forward. */
  async markRead(caller: Caller, id: string | null): Promise<ReadState> {
    const moved = await inTransaction(this.deps.sql, async (client) => {
      const { rows } = await client.query<{ seq: number | null }>(
        `select ${id === null ? 'max(b.seq)' : 'b.seq'} as seq from accounts me join broadcasts b on ${addressedTo}
          where me.id = $1 ${id === null ? '' : 'and b.id = $3'}`,
        id === null ? [caller.accountId, caller.moduleCode] : [caller.accountId, caller.moduleCode, id],
      );
      const seq = rows[0]?.seq ?? null;
      if (seq === null) {
        if (id !== null) throw broadcastNotFound();
        return false;
      }
      const now = this.deps.clock.now();
      const { rowCount } = await client.query(
        `insert into broadcast_reads (account_id, last_read_seq, updated_at) values ($1, $2, $3)
         on conflict (account_id) do update set last_read_seq = excluded.last_read_seq, updated_at = excluded.updated_at
          where broadcast_reads.last_read_seq < excluded.last_read_seq`,
        [caller.accountId, seq, now],
      );
      if (!rowCount) return false;
      const { rows: marked } = await client.query<{ id: string }>('select id from broadcasts where seq = $1', [seq]);
      await emit(
        client,
        'broadcast.read',
        { accountId: caller.accountId, lastReadId: marked[0]!.id },
        accountsAudience([caller.accountId]),
      );
      return true;
    });
    if (moved) this.deps.queues.requestOutboxDrain();
    return this.readState(caller);
  }

  /** The read mark and the number of broadcasts addressed to the caller after it. */
  async readState(caller: Caller): Promise<ReadState> {
    const { rows } = await this.deps.sql.query<{ last_read_id: string | null; unread_count: number }>(
      `select (select id from broadcasts where seq = r.last_read_seq) as last_read_id,
              (select count(*)::int from broadcasts b where ${addressedTo} and b.seq > coalesce(r.last_read_seq, 0)) as unread_count
         from accounts me left join broadcast_reads r on r.account_id = me.id
        where me.id = $1`,
      [caller.accountId, caller.moduleCode],
    );
    const row = rows[0];
    return { lastReadId: row?.last_read_id ?? null, unreadCount: row?.unread_count ?? 0 };
  }
}
