// Telegram's Poll object over the chat's poll: the chat's results with what sendPoll said about the poll
// (bot_polls). A poll without that row (one a user created) is a regular anonymous poll, as Telegram shows it.
import type { Runner } from '../../platform/db/typed.js';
import { pollView, type PollView } from '../polls/views.js';
import { pollForCaller } from '../polls/queries.js';
import type { StoredFormatting } from '../base/formatting.js';
import { telegramEntities, type TelegramEntity } from './formatted-entities.js';
import { botPollRow, optionPositionRows } from './poll-queries.js';

export interface TelegramPoll {
  id: string;
  question: string;
  options: Array<{ persistent_id: string; text: string; voter_count: number }>;
  total_voter_count: number;
  is_closed: boolean;
  is_anonymous: boolean;
  type: 'regular' | 'quiz';
  allows_multiple_answers: boolean;
  allows_revoting: true;
  members_only: false;
  correct_option_ids?: number[];
  correct_option_id?: number;
  explanation?: string;
  explanation_entities?: TelegramEntity[];
}

export interface BotPollMeta {
  bot_id: string;
  is_anonymous: boolean;
  quiz: boolean;
  correct_option_ids: number[] | null;
  explanation: string | null;
  explanation_entities: StoredFormatting[] | null;
}

/** What sendPoll said about the poll; undefined for a poll no bot sent. */
export const botPollMeta = (db: Runner, pollId: string) => botPollRow(db, pollId);

/** The quiz's answer is shown only to the bot that sent it, as in Telegram. */
export function telegramPoll(view: PollView, meta: BotPollMeta | undefined, viewerBotId: string): TelegramPoll {
  const own = meta !== undefined && meta.bot_id === viewerBotId;
  return {
    id: view.id,
    question: view.question,
    options: view.options.map((o) => ({ persistent_id: o.id, text: o.text, voter_count: o.votes })),
    total_voter_count: view.totalVoters,
    is_closed: view.closed,
    is_anonymous: meta?.is_anonymous ?? true,
    type: meta?.quiz ? 'quiz' : 'regular',
    allows_multiple_answers: view.multipleChoice,
    allows_revoting: true,
    members_only: false,
    ...(own && meta.correct_option_ids !== null
      ? { correct_option_ids: meta.correct_option_ids, correct_option_id: meta.correct_option_ids[0]! }
      : {}),
    ...(own && meta.explanation !== null ? { explanation: meta.explanation } : {}),
    ...(own && meta.explanation_entities ? { explanation_entities: telegramEntities('', meta.explanation_entities) } : {}),
  };
}

/** The poll as the bot whose account is given sees it; undefined when the bot is not in the poll's room. */
export async function pollForBot(db: Runner, pollId: string, bot: { id: string; accountId: string }): Promise<TelegramPoll | undefined> {
  const row = await pollForCaller(db, pollId, bot.accountId);
  if (!row) return undefined;
  return telegramPoll(await pollView(db, row, bot.accountId), await botPollMeta(db, pollId), bot.id);
}

/** A ballot's options as Telegram's 0-based option ids (positions in the poll). */
export async function optionPositions(db: Runner, pollId: string): Promise<Map<string, number>> {
  const held = await optionPositionRows(db, pollId);
  return new Map(held.map((o) => [o.id, o.position]));
}
