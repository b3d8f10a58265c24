// my_chat_member and chat_member updates from the chat's membership events. The bot itself added to a room (or in
// it at the room's creation), leaving it, or getting a new role gets my_chat_member; the other bots of the room
// get chat_member for the same change, only when they listed chat_member in allowed_updates, as in Telegram.
// Private rooms give none: Telegram reports them only when a user blocks the bot, which the chat has not.
import type { SqlClient } from '../../../platform/db/sql.js';
import { chatMember } from '../api/chat-methods.js';
import { telegramChat, telegramUser } from '../telegram.js';
import { allows } from './allowed.js';
import { listeningBots, people, roomOf } from './member-queries.js';
import type { NewUpdate, PlacedEvent } from './new-update.js';

export const memberTopics = new Set(['room.created', 'member.added', 'member.left', 'member.removed', 'member.role_changed']);

/** One member's change: its role before and after (null: not a member), and who made it. */
interface Change {
  accountId: string;
  from: string | null;
  before: string | null;
  after: string | null;
}

function changesOf(event: PlacedEvent): Change[] {
  const p = event.payload;
  switch (event.topic) {
    case 'room.created':
      return (p.memberIds as string[]).map((accountId) => ({ accountId, from: null, before: null, after: 'MEMBER' }));
    case 'member.added':
      return (p.accountIds as string[]).map((accountId) => ({
        accountId,
        from: (p.addedBy as string | null) ?? accountId,
        before: null,
        after: p.role as string,
      }));
    case 'member.left':
      return [{ accountId: p.accountId as string, from: p.accountId as string, before: 'MEMBER', after: null }];
    case 'member.removed':
      return (p.accountIds as string[]).map((accountId) => ({ accountId, from: accountId, before: 'MEMBER', after: null }));
    default:
      return [{ accountId: p.accountId as string, from: p.changedBy as string, before: p.previousRole as string, after: p.role as string }];
  }
}

interface Person {
  bot_api_id: number;
  display_name: string;
  account_type: string;
  username: string | null;
}

const member = (who: Person, role: string | null) => {
  const row = {
    role: role ?? 'MEMBER',
    bot_api_id: who.bot_api_id,
    display_name: who.display_name,
    account_type: who.account_type,
    username: who.username,
  };
  return role === null ? { status: 'left' as const, user: chatMember(row).user } : chatMember(row);
};

async function updatesOf(client: SqlClient, event: PlacedEvent, date: number): Promise<NewUpdate[]> {
  const roomId = event.payload.roomId as string;
  const room = await roomOf(client, roomId);
  if (!room || room.type === 'PRIVATE') return [];
  const changes = changesOf(event).map((c) => ({ ...c, from: c.from ?? room.owner_id ?? c.accountId }));
  // At the room's creation the roles are the ones it was created with.
  const roleNow = new Map((room.roles ?? []).map((r) => [r.account_id, r.role]));
  if (event.topic === 'room.created') for (const c of changes) c.after = roleNow.get(c.accountId) ?? c.after;
  const found = await people(client, [...new Set(changes.flatMap((c) => [c.accountId, c.from]))]);
  const byId = new Map(found.map((p) => [p.id, p]));
  const listeners = await listeningBots(client, roomId);
  const chat = telegramChat(room.bot_api_id, room.type, room.name);
  const made: NewUpdate[] = [];
  for (const c of changes) {
    const who = byId.get(c.accountId);
    const by = byId.get(c.from);
    if (!who || !by) continue;
    const body = {
      chat,
      from: telegramUser(by.bot_api_id, by.display_name, by.account_type, by.username),
      date,
      old_chat_member: member(who, c.before),
      new_chat_member: member(who, c.after),
    };
    if (who.bot_id !== null && allows(who.allowed_updates, 'my_chat_member'))
      made.push({ ord: event.ord, botId: who.bot_id, kind: 'my_chat_member', body: { my_chat_member: body } });
    // Members a room is created with are not news to the other bots, as in Telegram.
    if (event.topic === 'room.created') continue;
    for (const listener of listeners)
      if (listener.account_id !== c.accountId)
        made.push({ ord: event.ord, botId: listener.id, kind: 'chat_member', body: { chat_member: body } });
  }
  return made;
}

export async function memberUpdates(client: SqlClient, events: PlacedEvent[], now: Date): Promise<NewUpdate[]> {
  const date = Math.floor(now.getTime() / 1000);
  const made: NewUpdate[] = [];
  for (const event of events) made.push(...(await updatesOf(client, event, date)));
  return made;
}
