// Broadcasts: platform administrators send to every module or to listed modules; each user reads a feed of what
// was addressed to it with an unread count, and moves a read mark that never goes backwards.
import { sql } from 'kysely';
import { inTransaction } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { cursorInt, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatError, chatErrors } from '../base/errors.js';
import { accountsAudience, broadcastAudience, emit } from '../events/emit.js';
import type { Page } from '../base/paging.js';
import { chatDb } from '../base/tables.js';
import { addressedTo, broadcastColumns, broadcastView, type BroadcastFeedItem, type BroadcastView } from './views.js';

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
      const found = await rows(
        this.deps.sql,
        chatDb
          .selectFrom('modules')
          .select('code')
          .where(sql<boolean>`code = any(${modules}::text[])`),
      );
      const known = new Set(found.map((r) => r.code));
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
      await affected(client, chatDb.selectNoFrom(sql`pg_advisory_xact_lock(${CREATION_LOCK})`.as('locked')));
      const created = await firstRow(
        client,
        chatDb
          .insertInto('broadcasts')
          .values({ id, title: input.title ?? null, text: input.text, modules, created_by: caller.accountId, created_at: now })
          .returning(['id', 'seq', 'title', 'text', 'modules', 'created_by', 'created_at']),
      );
      await emit(
        client,
        'broadcast.created',
        { broadcastId: id, title: input.title ?? null, text: input.text, createdBy: caller.accountId, createdAt: now.toISOString() },
        broadcastAudience(modules ?? 'all'),
      );
      return created!;
    });
    return broadcastView(row);
  }

  /** Newest first; keyset on seq. */
  async feed(caller: Caller, query: { limit?: number; cursor?: string }): Promise<Page<BroadcastFeedItem>> {
    const list = `broadcasts:${caller.accountId}`;
    const limit = query.limit ?? 50;
    let before: number | null = null;
    if (query.cursor !== undefined) {
      before = cursorInt(decodeCursor(query.cursor, list)?.s, 1);
      if (before === null) throw chatErrors.invalidCursor('query.cursor');
    }
    const found = await rows(
      this.deps.sql,
      chatDb
        .selectFrom('accounts as me')
        .leftJoin('broadcast_reads as r', 'r.account_id', 'me.id')
        .innerJoin('broadcasts as b', (j) => j.on(addressedTo(caller.moduleCode)))
        .select(broadcastColumns)
        .select(sql<boolean>`b.seq <= coalesce(r.last_read_seq, 0)`.as('read'))
        .where('me.id', '=', caller.accountId)
        .$if(before !== null, (q) => q.where('b.seq', '<', before!))
        .orderBy('b.seq', 'desc')
        .limit(limit + 1),
    );
    const hasMore = found.length > limit;
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({ ...broadcastView(r), read: r.read })),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ s: last.seq }, list) : null,
    };
  }

  /** Up to the broadcast `id` of the caller's feed, or the newest one when null; the mark only moves forward. */
  async markRead(caller: Caller, id: string | null): Promise<ReadState> {
    await inTransaction(this.deps.sql, async (client) => {
      const addressed = chatDb
        .selectFrom('accounts as me')
        .innerJoin('broadcasts as b', (j) => j.on(addressedTo(caller.moduleCode)))
        .where('me.id', '=', caller.accountId);
      const target = await firstRow<{ seq: number | null }>(
        client,
        id === null ? addressed.select((eb) => eb.fn.max('b.seq').as('seq')) : addressed.select('b.seq').where('b.id', '=', id),
      );
      const seq = target?.seq ?? null;
      if (seq === null) {
        if (id !== null) throw broadcastNotFound();
        return false;
      }
      const now = this.deps.clock.now();
      const written = await affected(
        client,
        chatDb
          .insertInto('broadcast_reads')
          .values({ account_id: caller.accountId, last_read_seq: seq, updated_at: now })
          .onConflict((oc) =>
            oc
              .column('account_id')
              .doUpdateSet((eb) => ({ last_read_seq: eb.ref('excluded.last_read_seq'), updated_at: eb.ref('excluded.updated_at') }))
              .where('broadcast_reads.last_read_seq', '<', (eb) => eb.ref('excluded.last_read_seq')),
          ),
      );
      if (!written) return false;
      const marked = await firstRow(client, chatDb.selectFrom('broadcasts').select('id').where('seq', '=', seq));
      await emit(client, 'broadcast.read', { accountId: caller.accountId, lastReadId: marked!.id }, accountsAudience([caller.accountId]));
      return true;
    });
    return this.readState(caller);
  }

  /** The read mark and the number of broadcasts addressed to the caller after it. */
  async readState(caller: Caller): Promise<ReadState> {
    const row = await firstRow(
      this.deps.sql,
      chatDb
        .selectFrom('accounts as me')
        .leftJoin('broadcast_reads as r', 'r.account_id', 'me.id')
        .select((eb) => [
          eb.selectFrom('broadcasts').select('id').whereRef('seq', '=', 'r.last_read_seq').$asScalar().as('last_read_id'),
          eb
            .selectFrom('broadcasts as b')
            .select(sql<number>`count(*)::int`.as('n'))
            .where(addressedTo(caller.moduleCode))
            .where(sql<boolean>`b.seq > coalesce(r.last_read_seq, 0)`)
            .$asScalar()
            .as('unread_count'),
        ])
        .where('me.id', '=', caller.accountId),
    );
    return { lastReadId: row?.last_read_id ?? null, unreadCount: row?.unread_count ?? 0 };
  }
}
