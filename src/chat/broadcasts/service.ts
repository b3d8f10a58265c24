// Broadcasts: platform administrators send to every module or to listed modules; each user reads a feed of what
// was addressed to it with an unread count, and moves a read mark that never goes backwards.
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInt, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatError, chatErrors } from '../base/errors.js';
import { accountsAudience, broadcastAudience, emit } from '../events/emit.js';
import type { Page } from '../base/paging.js';
import {
  addressedSeq,
  advanceReadMark,
  broadcastFeed,
  broadcastIdAt,
  insertBroadcast,
  knownModules,
  lockBroadcastCreation,
  readMarkOf,
} from './queries.js';
import { broadcastView, type BroadcastFeedItem, type BroadcastView } from './views.js';

export interface CreateBroadcastInput {
  title?: string;
  text: string;
}

export interface ReadState {
  lastReadId: string | null;
  unreadCount: number;
}

const broadcastNotFound = () => chatErrors.notFound('Broadcast', 'broadcast_not_found');

export class BroadcastService {
  constructor(private readonly deps: ChatDeps) {}

  /** modules null: every user of every module. Unknown modules refuse the whole request before anything is written. */
  async create(caller: Caller, input: CreateBroadcastInput, requestedModules: string[] | null): Promise<BroadcastView> {
    const modules = requestedModules === null ? null : [...new Set(requestedModules)];
    if (requestedModules !== null && modules !== null) {
      const known = new Set(await knownModules(this.deps.sql, modules));
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
      // Creations commit in seq order: a read mark at seq n never passes over a lower seq that commits later.
      await lockBroadcastCreation(client);
      const created = await insertBroadcast(client, {
        id,
        title: input.title ?? null,
        text: input.text,
        modules,
        createdBy: caller.accountId,
        at: now,
      });
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
    const found = await broadcastFeed(this.deps.sql, caller, before, limit + 1);
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
      const seq = await addressedSeq(client, caller, id);
      if (seq === null) {
        if (id !== null) throw broadcastNotFound();
        return;
      }
      if (!(await advanceReadMark(client, caller.accountId, seq, this.deps.clock.now()))) return;
      const marked = await broadcastIdAt(client, seq);
      await emit(client, 'broadcast.read', { accountId: caller.accountId, lastReadId: marked! }, accountsAudience([caller.accountId]));
    });
    return this.readState(caller);
  }

  /** The read mark and the number of broadcasts addressed to the caller after it. */
  async readState(caller: Caller): Promise<ReadState> {
    const row = await readMarkOf(this.deps.sql, caller);
    return { lastReadId: row?.last_read_id ?? null, unreadCount: row?.unread_count ?? 0 };
  }
}
