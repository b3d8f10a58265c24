// message_reaction updates: a member (not a bot) added or removed a reaction on a message of a room the bot is in,
// for bots that listed message_reaction in allowed_updates (Telegram never sends it by default). old_reaction and
// new_reaction are the member's whole lists around this change, read when the event is drained: the member's other
// reactions as they are then, with the event's emoji before (removed) or after (added).
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { rows } from '../../../platform/db/typed.js';
import { chatDb } from '../../base/tables.js';
import { telegramChat, telegramUser } from '../telegram.js';
import type { NewUpdate, PlacedEvent } from './new-update.js';

export const reactionTopics = new Set(['reaction.added', 'reaction.removed']);

const asReactions = (emojis: string[]) => emojis.map((emoji) => ({ type: 'emoji' as const, emoji }));

const candidates = (events: PlacedEvent[]) =>
  chatDb
    .selectFrom(
      sql<{
        ord: number;
        message_id: string;
        account_id: string;
      }>`unnest(${events.map((e) => e.ord)}::int[], ${events.map((e) => e.payload.messageId)}::uuid[], ${events.map((e) => e.payload.accountId)}::uuid[])`.as<'e'>(
        sql`e(ord, message_id, account_id)`,
      ),
    )
    .innerJoin('messages as msg', 'msg.id', 'e.message_id')
    .innerJoin('rooms as r', 'r.id', 'msg.room_id')
    .innerJoin('accounts as ua', (join) => join.onRef('ua.id', '=', 'e.account_id').on('ua.account_type', '<>', 'BOT'))
    .innerJoin('room_members as m', 'm.room_id', 'msg.room_id')
    .innerJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'm.account_id').on('b.deleted_at', 'is', null))
    .select([
      'e.ord',
      'b.id as bot_id',
      'msg.seq',
      'r.bot_api_id as room_api_id',
      'r.type as room_type',
      'r.name as room_name',
      'ua.bot_api_id as user_api_id',
      'ua.display_name',
      'ua.account_type',
    ])
    .select(
      sql<
        string[]
      >`array(select x.emoji from message_reactions x where x.message_id = e.message_id and x.account_id = e.account_id order by x.created_at, x.emoji)`.as(
        'current',
      ),
    )
    .where(sql<boolean>`'message_reaction' = any(b.allowed_updates)`)
    .orderBy('e.ord')
    .orderBy('b.id');

export async function reactionUpdates(client: SqlClient, events: PlacedEvent[], now: Date): Promise<NewUpdate[]> {
  if (events.length === 0) return [];
  const byOrd = new Map(events.map((e) => [e.ord, e]));
  return (await rows(client, candidates(events))).map((c) => {
    const event = byOrd.get(c.ord)!;
    const emoji = event.payload.emoji as string;
    const others = c.current.filter((e) => e !== emoji);
    const added = event.topic === 'reaction.added';
    return {
      ord: c.ord,
      botId: c.bot_id,
      kind: 'message_reaction' as const,
      body: {
        message_reaction: {
          chat: telegramChat(c.room_api_id, c.room_type, c.room_name),
          message_id: c.seq,
          user: telegramUser(c.user_api_id, c.display_name, c.account_type, null),
          date: Math.floor(now.getTime() / 1000),
          old_reaction: asReactions(added ? others : [...others, emoji]),
          new_reaction: asReactions(added ? [...others, emoji] : others),
        },
      },
    };
  });
}
