// The two lists of the channels: the caller's channels (pinned first, then newest) and a channel's members (joining
// order), each keyset-paged.
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { channelAccess } from '../base/channel-access.js';
import { channelMemberPage, channelPage } from './queries.js';
import { channelMemberView, channelView, type ChannelMemberView, type ChannelView } from './views.js';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** The caller's pinned channels first, then newest first; keyset (pinned, created_at, id). */
export async function listChannels(deps: ChatDeps, caller: Caller, query: PageQuery): Promise<Page<ChannelView>> {
  const list = `channels:${caller.accountId}`;
  const limit = query.limit ?? 50;
  let after: { pinned: boolean; at: string; id: string } | null = null;
  if (query.cursor !== undefined) {
    const c = decodeCursor(query.cursor, list);
    const at = cursorInstant(c?.a);
    const id = cursorUuid(c?.i);
    if (!c || (c.p !== 0 && c.p !== 1) || !at || !id) throw chatErrors.invalidCursor('query.cursor');
    after = { pinned: c.p === 1, at, id };
  }
  const found = await channelPage(deps.sql, caller.accountId, after, limit + 1);
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
  let after: { at: string; id: string } | null = null;
  if (query.cursor !== undefined) {
    const c = decodeCursor(query.cursor, list);
    const at = cursorInstant(c?.a);
    const id = cursorUuid(c?.i);
    if (!at || !id) throw chatErrors.invalidCursor('query.cursor');
    after = { at, id };
  }
  await channelAccess(deps.sql, caller, channelId);
  const found = await channelMemberPage(deps.sql, channelId, after, limit + 1);
  const hasMore = found.length > limit;
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(channelMemberView),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ a: last.joined_at.toISOString(), i: last.account_id }, list) : null,
  };
}
