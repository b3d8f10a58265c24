// The caller's room list: one statement per page (the page of rooms, then the unread count and last message of
// those rooms only), keyset-paged on (pinned, last activity, id), with members inlined on request.
import { readPool } from '../../platform/db/read-router.js';
import type { SqlPool } from '../../platform/db/sql.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { roomView, type RoomView } from '../base/room-views.js';
import { isCursorInstant, isCursorUuid } from './cursors.js';
import { membersOfRooms, roomListPage } from './room-list-queries.js';

export interface ListRoomsQuery {
  limit?: number;
  cursor?: string;
  standalone?: boolean;
  channelId?: string;
  archived?: boolean;
  q?: string;
  include?: 'members';
  labelId?: string;
}

/** Room list keyset: the caller's pinned flag, last activity, room id (all descending). */
interface RoomCursor {
  pinned: boolean;
  at: string;
  id: string;
}

/** The room list of one caller under one set of filters: a cursor opens only the list it came from. */
function roomList(accountId: string, query: ListRoomsQuery): string {
  const q = query.archived === true ? (query.q ?? null) : null; // q filters archived rooms only; elsewhere it is ignored
  return `rooms:${accountId}:${JSON.stringify([query.archived === true, q, query.standalone === true, query.channelId ?? null, query.labelId ?? null])}`;
}

function parseRoomCursor(raw: string, list: string): RoomCursor {
  const c = decodeCursor(raw, list);
  if (!c || (c.p !== 0 && c.p !== 1) || !isCursorInstant(c.a) || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
  return { pinned: c.p === 1, at: c.a, id: c.i };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** One statement per page: the page of rooms, then the unread count and last message of those rooms only. */
export async function listRooms(deps: ChatDeps, caller: Caller, query: ListRoomsQuery): Promise<Page<RoomView>> {
  const limit = query.limit ?? 50;
  const cursor = query.cursor === undefined ? null : parseRoomCursor(query.cursor, roomList(caller.accountId, query));
  const search = query.q !== undefined && query.archived === true ? `%${escapeLike(query.q)}%` : null;
  const { labelId, channelId } = query;
  // Filters add clauses from a fixed set, never values: a bounded set of texts to prepare.
  const shape = {
    search: search !== null,
    standalone: query.standalone === true,
    channel: channelId !== undefined,
    label: labelId !== undefined,
    cursor: cursor !== null,
  };
  const values = {
    account: caller.accountId,
    archived: query.archived === true,
    ...(search !== null ? { search } : {}),
    ...(channelId !== undefined ? { channel: channelId } : {}),
    ...(labelId !== undefined ? { label: labelId } : {}),
    ...(cursor !== null ? { pinned: cursor.pinned, at: cursor.at, id: cursor.id } : {}),
    limit: limit + 1,
  };
  const db = await readPool(deps);
  const rows = await roomListPage(db, shape, values);
  const hasMore = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const now = deps.clock.now();
  const items = pageRows.map((row) => roomView(row, now));
  if (query.include === 'members') await inlineMembers(deps, db, items);
  const last = pageRows[pageRows.length - 1];
  return {
    items,
    hasMore,
    nextCursor:
      hasMore && last
        ? encodeCursor({ p: last.pinned ? 1 : 0, a: last.last_activity_at.toISOString(), i: last.id }, roomList(caller.accountId, query))
        : null,
  };
}

/** Inlines members of rooms within the configured maximum; larger rooms get membersTruncated. */
async function inlineMembers(deps: ChatDeps, db: SqlPool, rooms: RoomView[]): Promise<void> {
  const max = deps.config.inlineMembersMax;
  const small = rooms.filter((r) => r.memberCount <= max);
  for (const room of rooms) {
    room.members = [];
    room.membersTruncated = room.memberCount > max;
  }
  if (small.length === 0) return;
  const members = await membersOfRooms(
    db,
    small.map((r) => r.id),
  );
  const byRoom = new Map(small.map((r) => [r.id, r]));
  for (const row of members) {
    byRoom.get(row.room_id)?.members?.push({ accountId: row.account_id, role: row.role, joinedAt: row.joined_at.toISOString() });
  }
}
