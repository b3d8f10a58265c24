// sendPoll and stopPoll over the chat's polls: the bot creates the chat's poll (with its POLL message) in a room it
// is in, as a member would, and keeps what Telegram adds (is_anonymous, quiz) in bot_polls; stopPoll is the chat's
// close. Every refusal comes before anything is written.
import type { Runner } from '../../../platform/db/typed.js';
import type { FormattingEntity } from '../formatting/index.js';
import { AppError } from '../../../platform/http/app-error.js';
import { PollService } from '../../polls/service.js';
import type { PollView } from '../../polls/views.js';
import type { BotDeps } from '../deps.js';
import { botPollMeta, telegramPoll, type TelegramPoll } from '../poll-objects.js';
import { withPoll } from '../poll-messages.js';
import { loadBotMessages, telegramMessage, type TelegramMessage } from '../telegram.js';
import { roomOfChat, type ChatRef } from './chats.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { callerOfBot } from './messages.js';
import { insertBotPoll, pollOfMessage } from './poll-queries.js';
import type { BotSendLimit } from './send-limit.js';
import { markupOf, storeMarkup } from './reply-markup-store.js';
import { parsedText, type TelegramEntityInput } from './formatted-text.js';
import { storedFormatting } from './text-mentions.js';

export interface SendPollInput {
  chat_id: ChatRef;
  question: string;
  options: Array<string | { text: string }>;
  is_anonymous?: boolean;
  type?: 'regular' | 'quiz';
  allows_multiple_answers?: boolean;
  correct_option_ids?: number[];
  correct_option_id?: number;
  explanation?: string;
  is_closed?: boolean;
  question_parse_mode?: string;
  question_entities?: TelegramEntityInput[];
  explanation_parse_mode?: string;
  explanation_entities?: TelegramEntityInput[];
  reply_markup?: unknown;
}

export interface StopPollInput {
  chat_id: ChatRef;
  message_id: number;
}

/**
 * Telegram's own checks of a quiz, each naming its parameter (open_period, close_date and allows_revoting false,
 * which the chat's polls cannot honour, are refused by the schema).
 */
function refusal(input: SendPollInput, correct: number[] | null): string | null {
  if (input.type !== 'quiz') return null;
  if (correct === null) return 'correct_option_ids is required in a quiz';
  if (correct.some((i) => i >= input.options.length)) return 'correct_option_ids must name options of the poll';
  if (new Set(correct).size !== correct.length) return 'correct_option_ids must not repeat an option';
  if (correct.length > 1 && input.allows_multiple_answers !== true)
    return 'correct_option_ids names one option unless allows_multiple_answers is true';
  return null;
}

/** A quiz's correct options, as clients since Bot API 9.6 send them or as one option before. */
const correctOptions = (input: SendPollInput): number[] | null =>
  input.correct_option_ids ?? (input.correct_option_id !== undefined ? [input.correct_option_id] : null);

/** The chat's refusals in Telegram's envelope: its validation messages name the same parameters. */
function asBotError(err: unknown): never {
  if (err instanceof AppError && err.code === 'room_not_found') throw botApiErrors.chatNotFound();
  throw err;
}

const explanationSpans = async (db: Runner, roomId: string, spans: FormattingEntity[] | null) => {
  const kept = await storedFormatting(db, roomId, spans);
  return kept === null ? null : JSON.stringify(kept);
};

export class BotPolls {
  private readonly polls: PollService;

  constructor(
    private readonly deps: BotDeps,
    private readonly limit: BotSendLimit,
  ) {
    this.polls = new PollService(deps);
  }

  async send(bot: BotPrincipal, input: SendPollInput): Promise<TelegramMessage> {
    const correct = correctOptions(input);
    const quiz = input.type === 'quiz';
    const refused = refusal(input, correct);
    if (refused) throw botApiErrors.badRequest(refused);
    const markup = markupOf(input.reply_markup);
    // A question keeps its text only, as Telegram allows no other formatting there; an explanation keeps its spans.
    const question = parsedText(input.question, input.question_parse_mode, input.question_entities).text;
    const explanation =
      quiz && input.explanation !== undefined
        ? parsedText(input.explanation, input.explanation_parse_mode, input.explanation_entities)
        : null;
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    await this.limit.check(bot.id);
    const caller = callerOfBot(bot);
    const options = input.options.map((o) => (typeof o === 'string' ? o : o.text));
    const explanationEntities = await explanationSpans(this.deps.sql, roomId, explanation?.formatting ?? null);
    const view = await this.polls
      .create(
        caller,
        roomId,
        { question, options, multipleChoice: input.allows_multiple_answers ?? false },
        {
          closed: input.is_closed === true,
          alongside: async (client, made) => {
            await insertBotPoll(client, {
              pollId: made.pollId,
              botId: bot.id,
              isAnonymous: input.is_anonymous ?? true,
              quiz,
              correctOptionIds: quiz ? correct : null,
              explanation: explanation?.text ?? null,
              explanationEntities,
            });
            if (markup) await storeMarkup(client, { id: made.messageId, roomId, senderId: bot.accountId, text: question }, markup);
          },
        },
      )
      .catch(asBotError);
    return this.message(view, bot);
  }

  async stop(bot: BotPrincipal, input: StopPollInput): Promise<TelegramPoll> {
    const roomId = await roomOfChat(this.deps.sql, bot, input.chat_id);
    const found = await pollOfMessage(this.deps.sql, roomId, input.message_id);
    if (!found) throw botApiErrors.badRequest('message with poll to stop not found');
    if (found.creator_id !== bot.accountId) throw botApiErrors.badRequest("poll can't be stopped: the bot did not send it");
    if (found.closed_at !== null) throw botApiErrors.badRequest('poll has already been closed');
    const view = await this.polls.close(callerOfBot(bot), found.id).catch(asBotError);
    return telegramPoll(view, await botPollMeta(this.deps.sql, view.id), bot.id);
  }

  private async message(view: PollView, bot: BotPrincipal): Promise<TelegramMessage> {
    const row = (await loadBotMessages(this.deps.sql, [view.messageId])).get(view.messageId);
    if (!row) throw new Error(`poll message ${view.messageId} vanished after its write`);
    return withPoll(this.deps.sql, telegramMessage(row), view.id, bot);
  }
}
