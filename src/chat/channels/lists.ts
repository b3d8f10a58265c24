// The two lists of the channels: the caller's channels (pinned first, then newest) and a channel's members (joining
// order), each keyset-paged.
import { sql } from 'kysely';
import { rows } from '../../platform/db/typed.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { channelAccess } from '../base/channel-access.js';
import { channelMemberQuery, channelMemberView, channelQuery, channelView, type ChannelMemberView, type ChannelView } from './views.js';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** The caller's pinned channels first, then newest first; keyset (pinned, created_at, id). */
export async function listChannels(deps: ChatDeps, caller: Caller, query: PageQuery): Promise<Page<ChannelView>> {
  const list = `channels:${caller.accountId}`;
  const limit = query.limit ?? 50;
  let select = channelQuery(caller.accountId);
  if (query.cursor !== undefined) {
    const c = decodeCursor(query.cursor, list);
    const at = cursorInstant(c?.a);
    const id = cursorUuid(c?.i);
    if (!c || (c.p !== 0 && c.p !== 1) || !at || !id) throw chatErrors.invalidCursor('query.cursor');
    const pinned = c.p === 1;
    select = select.where((eb) =>
      eb(
        eb.refTuple('m.pinned', 'c.created_at', 'c.id'),
        '<',
        eb.tuple(sql<boolean>`${pinned}::boolean`, sql<Date>`${at}::timestamptz`, sql<string>`${id}::uuid`),
      ),
    );
  }
  const found = await rows(
    deps.sql,
    select
      .orderBy('m.pinned', 'desc')
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit + 1),
  );
  const hasMore = found.length > limit;
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(channelView),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ p: last.pinned ? 1 : 0, a: last.created_at.toISOString(), i: last.id }, list) : null,
  };
}

/** Joining order, keyset (joined_at, account_id). */
export async function listChannelMembers(
  deps: ChatDeps,
  caller: Caller,
  channelId: string,
  query: PageQuery,
): Promise<Page<ChannelMemberView>> {
  const list = `channel-members:${channelId}`;
  const limit = query.limit ?? 100;
  let select = channelMemberQuery(channelId);
  if (query.cursor !== undefined) {
    const c = decodeCursor(query.cursor, list);
    const at = cursorInstant(c?.a);
    const id = cursorUuid(c?.i);
    if (!at || !id) throw chatErrors.invalidCursor('query.cursor');
    select = select.where((eb) =>
      eb(eb.refTuple('m.joined_at', 'm.account_id'), '>', eb.tuple(sql<Date>`${at}::timestamptz`, sql<string>`${id}::uuid`)),
    );
  }
  await channelAccess(deps.sql, caller, channelId);
  const found = await rows(
    deps.sql,
    select
      .orderBy('m.joined_at')
      .orderBy('m.account_id')
      .limit(limit + 1),
  );
  const hasMore = found.length > limit;
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(channelMemberView),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ a: last.joined_at.toISOString(), i: last.account_id }, list) : null,
  };
}
