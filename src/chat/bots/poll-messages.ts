// A POLL message as Telegram shows it: the poll (with its results as the bot may see them) in place of the text,
// which for the chat is the poll's question.
import type { Runner } from '../../platform/db/typed.js';
import { pollForBot } from './poll-objects.js';
import type { TelegramMessage } from './telegram.js';

export async function withPoll(
  db: Runner,
  message: TelegramMessage,
  pollId: string,
  bot: { id: string; accountId: string },
): Promise<TelegramMessage> {
  const poll = await pollForBot(db, pollId, bot);
  if (!poll) return message;
  const { text: _text, entities: _entities, ...rest } = message;
  return { ...rest, poll };
}
