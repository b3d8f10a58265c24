// What an event carries besides its ids (docs/events.md, "What every event carries"): the message, room, member and
// reaction views a client renders the change with, built once per event inside the relay's transaction, a few
// set-based statements per batch whatever the number of recipients. Only the fields every recipient shares go in:
// per-user state (hiddenForMe, a thread's unreadCount and following, reactedByMe, the room's preferences and unread
// count) comes with the per-user events.
import type { SqlClient } from '../../platform/db/sql.js';
import { messageViews, reactionCounts } from './event-message-views.js';
import { memberViews, roomViews } from './event-room-views.js';

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

export interface ViewedEvent {
  id: number;
  topic: string;
  payload: unknown;
  created_at: Date;
}

type Payload = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

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
