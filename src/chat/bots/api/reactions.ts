// setMessageReaction over the chat's reactions: the bot's reactions on a message become exactly the given ones
// (at most one, as for bots in Telegram; the schema refuses more, and the custom and paid kinds), through the
// chat's add and remove, so the room sees the same events as for a member's reaction.
import { AppError } from '../../../platform/http/app-error.js';
import { ReactionService } from '../../messages/reactions.js';
import type { BotDeps } from '../deps.js';
import { roomOfChat, type ChatRef } from './chats.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { callerOfBot } from './messages.js';
import { messageBySeq, reactionsOf } from './message-queries.js';

export interface SetReactionInput {
  chat_id: ChatRef;
  message_id: number;
  reaction?: Array<{ type: 'emoji'; emoji: string }>;
}

export async function setMessageReaction(deps: BotDeps, bot: BotPrincipal, input: SetReactionInput): Promise<true> {
  const wanted = (input.reaction ?? []).map((r) => r.emoji);
  const roomId = await roomOfChat(deps.sql, bot, input.chat_id);
  const message = await messageBySeq(deps.sql, roomId, input.message_id);
  if (!message || message.recalled_at !== null) throw botApiErrors.badRequest('message to react not found');
  const reactions = new ReactionService(deps);
  const caller = callerOfBot(bot);
  const current = await reactionsOf(deps.sql, message.id, bot.accountId);
  try {
    // Added before the old one goes, so a refused emoji leaves the earlier reaction in place.
    for (const emoji of wanted) await reactions.add(caller, roomId, message.id, emoji);
    for (const { emoji } of current) if (!wanted.includes(emoji)) await reactions.remove(caller, roomId, message.id, emoji);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'validation_failed') throw botApiErrors.badRequest('REACTION_INVALID');
    if (err.code === 'message_recalled' || err.code === 'message_not_found') throw botApiErrors.badRequest('message to react not found');
    throw err;
  }
  return true;
}
