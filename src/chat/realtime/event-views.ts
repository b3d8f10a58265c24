// What an event carries besides its ids (docs/events.md, "What every event carries"): the message, room, member and
// reaction views a client renders the change with, built once per event inside the relay's transaction, a few
// set-based statements per batch whatever the number of recipients. Only the fields every recipient shares go in:
// per-user state (hiddenForMe, a thread's unreadCount and following, reactedByMe, the room's preferences and unread
// count) comes with the per-user events.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { hotRows, rows as allRows } from '../../platform/db/typed.js';
import { messageColumnsIn, messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import type { AccountType, MemberView } from '../rooms/member-views.js';
import type { MessagePreview, RoomRole, RoomRow, RoomView } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';

/** The largest payload an event carries with its views (bytes of its JSON); above it the views are left out. */
export const maxEventBytes = 65_536;

/** Events about one message: they carry `message`. */
const messageTopics = new Set([
  'message.created',
  'message.edited',
  'message.recalled',
  'message.hidden',
  'message.restored',
  'pin.added',
  'snap.set',
  'mention.created',
]);
/** Events about a message's reactions: they carry `reactions`, the new counts. */
const reactionTopics = new Set(['reaction.added', 'reaction.removed']);
/** Events about a room or its members: they carry `room` (while the room exists). */
const roomTopics = new Set(['room.created', 'room.updated', 'member.added', 'member.left', 'member.removed', 'member.role_changed']);
/** Events that name members who are (still) in the room: they carry `members`, the views of those named. */
const memberTopics = new Set(['member.added', 'member.role_changed']);

export type SharedThreadView = { replyCount: number; lastReplyAt: string | null; lastReply: MessagePreview | null };
export type EventMessageView = Omit<MessageView, 'hiddenForMe'> & { thread?: SharedThreadView };

/** The room's view without the caller's own fields (role, preferences, unread counts). */
export type EventRoomView = Pick<
  RoomView,
  | 'id'
  | 'type'
  | 'name'
  | 'description'
  | 'addMemberPolicy'
  | 'channelId'
  | 'memberCount'
  | 'createdBy'
  | 'createdAt'
  | 'lastActivityAt'
  | 'lastMessage'
>;

/** A member's view without the member's own preferences. */
export type EventMemberView = Pick<MemberView, 'accountId' | 'role' | 'joinedAt' | 'displayName' | 'avatarUrl' | 'accountType'>;

export interface ReactionCount {
  emoji: string;
  count: number;
}

export interface ViewedEvent {
  id: number;
  topic: string;
  payload: unknown;
  created_at: Date;
}

type Payload = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The message row's columns of the alias `m`. */
const messageFields = messageColumnsIn('m');

/** Messages by id with the newest reply of each root; the text does not depend on the ids (a prepared statement). */
const messageFacts = (ids: string[]) =>
  chatDb
    .selectFrom('messages as m')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as r')
          .select(['r.id', 'r.sender_id', 'r.text', 'r.recalled_at', 'r.created_at'])
          .where('m.reply_count', '>', sql.lit(0))
          .where('m.thread_root_id', 'is', null)
          .whereRef('r.thread_root_id', '=', 'm.id')
          .orderBy('r.seq', 'desc')
          .limit(sql.lit(1))
          .as('lr'),
      (join) => join.onTrue(),
    )
    .select(messageFields)
    .select([
      'm.reply_count',
      'm.last_reply_at',
      'lr.id as lr_id',
      'lr.sender_id as lr_sender_id',
      'lr.text as lr_text',
      'lr.recalled_at as lr_recalled_at',
      'lr.created_at as lr_created_at',
    ])
    .where('m.id', '=', sql<string>`any(${ids}::uuid[])`)
    .$narrowType<Pick<MessageRow, 'type' | 'attachments' | 'inline_keyboard' | 'entities'>>();

type MessageFactsRow = Awaited<ReturnType<ReturnType<typeof messageFacts>['executeTakeFirstOrThrow']>>;

function threadOf(row: MessageFactsRow): SharedThreadView | undefined {
  if (row.thread_root_id !== null || row.reply_count <= 0) return undefined;
  return {
    replyCount: row.reply_count,
    lastReplyAt: row.last_reply_at ? row.last_reply_at.toISOString() : null,
    lastReply:
      row.lr_id && row.lr_sender_id && row.lr_created_at
        ? {
            id: row.lr_id,
            senderId: row.lr_sender_id,
            text: row.lr_recalled_at ? null : row.lr_text,
            createdAt: row.lr_created_at.toISOString(),
          }
        : null,
  };
}

function eventMessageView(row: MessageFactsRow): EventMessageView {
  const { hiddenForMe: _perUser, ...shared } = messageView(row);
  const thread = threadOf(row);
  return thread ? { ...shared, thread } : shared;
}

/** Messages by id with the shared part of their thread summary (the newest reply, whoever hid it). */
async function messageViews(client: SqlClient, ids: string[]): Promise<Map<string, { view: EventMessageView; thread?: SharedThreadView }>> {
  if (ids.length === 0) return new Map();
  // Prepared: it runs on the path from a commit to the sockets.
  const rows = await hotRows(client, messageFacts(ids));
  return new Map(rows.map((r) => [r.id, { view: eventMessageView(r), thread: threadOf(r) }]));
}

async function reactionCounts(client: SqlClient, messageIds: string[]): Promise<Map<string, ReactionCount[]>> {
  const counts = new Map<string, ReactionCount[]>(messageIds.map((id) => [id, []]));
  if (messageIds.length === 0) return counts;
  // The order of GET .../reactions: each emoji where it was first used on the message.
  const rows = await allRows(
    client,
    chatDb
      .selectFrom('message_reactions')
      .select(['message_id', 'emoji', sql<number>`count(*)::int`.as('count')])
      .where('message_id', '=', sql<string>`any(${messageIds}::uuid[])`)
      .groupBy(['message_id', 'emoji'])
      .orderBy('message_id')
      .orderBy(sql`min(created_at)`)
      .orderBy('emoji'),
  );
  for (const r of rows) counts.get(r.message_id)?.push({ emoji: r.emoji, count: r.count });
  return counts;
}

/** The room list's columns without the caller's own (role, unread and mention counts, labels, preferences). */
const roomFacts = (roomIds: string[]) =>
  chatDb
    .selectFrom('rooms as r')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as x')
          .select(['x.id', 'x.sender_id', 'x.text', 'x.recalled_at', 'x.created_at'])
          .whereRef('x.room_id', '=', 'r.id')
          .where('x.thread_root_id', 'is', null)
          .orderBy('x.seq', 'desc')
          .limit(sql.lit(1))
          .as('lm'),
      (join) => join.onTrue(),
    )
    .select([
      'r.id',
      'r.type',
      'r.name',
      'r.description',
      'r.add_member_policy',
      'r.channel_id',
      'r.member_count',
      'r.created_by',
      'r.created_at',
      'r.last_activity_at',
      'lm.id as last_id',
      'lm.sender_id as last_sender_id',
      'lm.text as last_text',
      'lm.recalled_at as last_recalled_at',
      'lm.created_at as last_created_at',
    ])
    .where('r.id', '=', sql<string>`any(${roomIds}::uuid[])`)
    .where('r.deleted_at', 'is', null)
    .$narrowType<Pick<RoomRow, 'type' | 'add_member_policy'>>();

async function roomViews(client: SqlClient, roomIds: string[]): Promise<Map<string, EventRoomView>> {
  if (roomIds.length === 0) return new Map();
  const rows = await allRows(client, roomFacts(roomIds));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        type: r.type,
        name: r.name,
        description: r.description,
        addMemberPolicy: r.add_member_policy,
        channelId: r.channel_id,
        memberCount: r.member_count,
        createdBy: r.created_by,
        createdAt: r.created_at.toISOString(),
        lastActivityAt: r.last_activity_at.toISOString(),
        lastMessage:
          r.last_id && r.last_sender_id && r.last_created_at
            ? {
                id: r.last_id,
                senderId: r.last_sender_id,
                text: r.last_recalled_at ? null : r.last_text,
                createdAt: r.last_created_at.toISOString(),
              }
            : null,
      },
    ]),
  );
}

/** Member views keyed `roomId:accountId`, of those still members. */
async function memberViews(client: SqlClient, roomIds: string[], accountIds: string[]): Promise<Map<string, EventMemberView>> {
  if (roomIds.length === 0) return new Map();
  const named = sql<{ room_id: string; account_id: string }>`unnest(${roomIds}::uuid[], ${accountIds}::uuid[])`.as<'k'>(
    sql`k(room_id, account_id)`,
  );
  const rows = await allRows(
    client,
    chatDb
      .selectFrom(named)
      .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'k.room_id').onRef('m.account_id', '=', 'k.account_id'))
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['m.room_id', 'm.account_id', 'm.role', 'm.joined_at', 'a.display_name', 'a.avatar_url', 'a.account_type'])
      .$narrowType<{ role: RoomRole; account_type: AccountType }>(),
  );
  return new Map(
    rows.map((r) => [
      `${r.room_id}:${r.account_id}`,
      {
        accountId: r.account_id,
        role: r.role,
        joinedAt: r.joined_at.toISOString(),
        displayName: r.display_name,
        avatarUrl: r.avatar_url,
        accountType: r.account_type,
      },
    ]),
  );
}

/** The accounts a member event names: `accountIds` (member.added) or `accountId` (member.role_changed). */
function namedMembers(p: Payload): string[] {
  if (Array.isArray(p.accountIds)) return p.accountIds.filter((id): id is string => typeof id === 'string');
  const one = str(p.accountId);
  return one ? [one] : [];
}

/**
 * The payload with its views; one over maxEventBytes keeps only its own fields and says `truncated: true`, and the
 * client reads what it needs over REST.
 */
function bounded(original: Payload, views: Payload): Payload {
  if (Object.keys(views).length === 0) return original;
  const full = { ...original, ...views };
  return Buffer.byteLength(JSON.stringify(full)) <= maxEventBytes ? full : { ...original, truncated: true };
}

/** The events of a batch with their views added to the payloads; events without views are returned as they are. */
export async function withViews<E extends ViewedEvent>(client: SqlClient, events: readonly E[]): Promise<E[]> {
  const messageIds = new Set<string>();
  const reactionIds = new Set<string>();
  const roomIds = new Set<string>();
  const memberRooms: string[] = [];
  const memberAccounts: string[] = [];
  for (const e of events) {
    const p = e.payload as Payload | null;
    if (!p || typeof p !== 'object') continue;
    const messageId = str(p.messageId);
    const roomId = str(p.roomId);
    if (messageTopics.has(e.topic) && messageId) {
      messageIds.add(messageId);
      // A reply's event also carries its root's new thread summary.
      const root = str(p.threadRootId);
      if (e.topic === 'message.created' && root) messageIds.add(root);
    }
    if (reactionTopics.has(e.topic) && messageId) reactionIds.add(messageId);
    if (roomTopics.has(e.topic) && roomId) roomIds.add(roomId);
    if (memberTopics.has(e.topic) && roomId) {
      for (const accountId of namedMembers(p)) {
        memberRooms.push(roomId);
        memberAccounts.push(accountId);
      }
    }
  }
  if (messageIds.size + reactionIds.size + roomIds.size + memberRooms.length === 0) return [...events];
  const messages = await messageViews(client, [...messageIds]);
  const reactions = await reactionCounts(client, [...reactionIds]);
  const rooms = await roomViews(client, [...roomIds]);
  const members = await memberViews(client, memberRooms, memberAccounts);
  return events.map((e) => {
    const p = e.payload as Payload | null;
    if (!p || typeof p !== 'object') return e;
    const views: Payload = {};
    const messageId = str(p.messageId);
    const roomId = str(p.roomId);
    if (messageTopics.has(e.topic) && messageId) {
      const m = messages.get(messageId);
      if (m) views.message = m.view;
      const root = e.topic === 'message.created' ? str(p.threadRootId) : null;
      const rootThread = root ? messages.get(root)?.thread : undefined;
      if (rootThread) views.rootThread = rootThread;
    }
    if (reactionTopics.has(e.topic) && messageId) views.reactions = reactions.get(messageId) ?? [];
    if (roomTopics.has(e.topic) && roomId) {
      const room = rooms.get(roomId);
      if (room) views.room = room;
    }
    if (memberTopics.has(e.topic) && roomId) {
      views.members = namedMembers(p).flatMap((id) => {
        const m = members.get(`${roomId}:${id}`);
        return m ? [m] : [];
      });
    }
    return { ...e, payload: bounded(p, views) };
  });
}
