// my_chat_member and chat_member updates from the chat's membership events. The bot itself added to a room (or in
// it at the room's creation), leaving it, or getting a new role gets my_chat_member; the other bots of the room
// get chat_member for the same change, only when they listed chat_member in allowed_updates, as in Telegram.
// Private rooms give none: Telegram reports them only when a user blocks the bot, which the chat has not.
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { firstRow, rows } from '../../../platform/db/typed.js';
import { chatDb } from '../../base/tables.js';
import { chatMember } from '../api/chat-methods.js';
import { telegramChat, telegramUser } from '../telegram.js';
import { allows } from './allowed.js';
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

const roomOf = (roomId: string) =>
  chatDb
    .selectFrom('rooms as r')
    .select(['r.bot_api_id', 'r.type', 'r.name'])
    .select((eb) =>
      eb
        .selectFrom('room_members as o')
        .select('o.account_id')
        .whereRef('o.room_id', '=', 'r.id')
        .where('o.role', '=', 'OWNER')
        .orderBy('o.joined_at')
        .limit(1)
        .as('owner_id'),
    )
    .select((eb) =>
      eb
        .selectFrom('room_members as x')
        .select(
          sql<
            Array<{ account_id: string; role: string }>
          >`coalesce(json_agg(json_build_object('account_id', x.account_id, 'role', x.role)), '[]')`.as('m'),
        )
        .whereRef('x.room_id', '=', 'r.id')
        .as('roles'),
    )
    .where('r.id', '=', roomId);

const people = (ids: string[]) =>
  chatDb
    .selectFrom('accounts as a')
    .leftJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'a.id').on('b.deleted_at', 'is', null))
    .select(['a.id', 'a.bot_api_id', 'a.display_name', 'a.account_type', 'b.id as bot_id', 'b.username', 'b.allowed_updates'])
    .where(sql<boolean>`a.id = any(${ids}::uuid[])`);

interface Person {
  bot_api_id: number;
  display_name: string;
  account_type: string;
  username: string | null;
}

/** The room's bots that listed chat_member, at drain time. */
const listeningBots = (roomId: string) =>
  chatDb
    .selectFrom('room_members as m')
    .innerJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'm.account_id').on('b.deleted_at', 'is', null))
    .select(['b.id', 'b.account_id'])
    .where('m.room_id', '=', roomId)
    .where(sql<boolean>`'chat_member' = any(b.allowed_updates)`)
    .orderBy('b.id');

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
  const room = await firstRow(client, roomOf(roomId));
  if (!room || room.type === 'PRIVATE') return [];
  const changes = changesOf(event).map((c) => ({ ...c, from: c.from ?? room.owner_id ?? c.accountId }));
  // At the room's creation the roles are the ones it was created with.
  const roleNow = new Map((room.roles ?? []).map((r) => [r.account_id, r.role]));
  if (event.topic === 'room.created') for (const c of changes) c.after = roleNow.get(c.accountId) ?? c.after;
  const found = await rows(client, people([...new Set(changes.flatMap((c) => [c.accountId, c.from]))]));
  const byId = new Map(found.map((p) => [p.id, p]));
  const listeners = await rows(client, listeningBots(roomId));
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
