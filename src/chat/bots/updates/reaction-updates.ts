// message_reaction updates: a member (not a bot) added or removed a reaction on a message of a room the bot is in,
// for bots that listed message_reaction in allowed_updates (Telegram never sends it by default). old_reaction and
// new_reaction are the member's whole lists around this change, read when the event is drained: the member's other
// reactions as they are then, with the event's emoji before (removed) or after (added).
import type { SqlClient } from '../../../platform/db/sql.js';
import { telegramChat, telegramUser } from '../telegram.js';
import type { NewUpdate, PlacedEvent } from './new-update.js';
import { reactionCandidates } from './reaction-queries.js';

export const reactionTopics = new Set(['reaction.added', 'reaction.removed']);

const asReactions = (emojis: string[]) => emojis.map((emoji) => ({ type: 'emoji' as const, emoji }));

export async function reactionUpdates(client: SqlClient, events: PlacedEvent[], now: Date): Promise<NewUpdate[]> {
  if (events.length === 0) return [];
  const byOrd = new Map(events.map((e) => [e.ord, e]));
  const columns = {
    ords: events.map((e) => e.ord),
    messageIds: events.map((e) => e.payload.messageId as string),
    accountIds: events.map((e) => e.payload.accountId as string),
  };
  return (await reactionCandidates(client, columns)).map((c) => {
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
