// What Telegram's sendPoll adds to the chat's polls (is_anonymous, quiz), the poll state last sent to the bot in a
// poll update, and the votes last reported to the bot as poll_answer updates; the schema check holds them to the
// migrations.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const BotPollEntity = defineEntity({
  name: 'BotPoll',
  tableName: 'bot_polls',
  properties: {
    pollId: reference(p.uuid().primary().fieldName('poll_id'), 'Poll', 'bot_polls_poll_id_fkey', 'cascade'),
    botId: reference(p.uuid().fieldName('bot_id'), 'Bot', 'bot_polls_bot_id_fkey'),
    isAnonymous: p.boolean().fieldName('is_anonymous'),
    quiz: p.boolean(),
    correctOptionIds: p.array().columnType('smallint[]').fieldName('correct_option_ids').nullable(),
    explanation: p.text().nullable(),
    toldPoll: p.json<unknown>().fieldName('told_poll').nullable(),
    /** The explanation's formatting (base/formatting.ts); null when none. */
    explanationEntities: p.json<unknown>().fieldName('explanation_entities').nullable(),
  },
  indexes: [{ name: 'bot_polls_bot_id', properties: ['botId'] }],
});
export type BotPoll = InferEntity<typeof BotPollEntity>;

export const BotPollAnswerEntity = defineEntity({
  name: 'BotPollAnswer',
  tableName: 'bot_poll_answers',
  properties: {
    pollId: reference(p.uuid().primary().fieldName('poll_id'), 'BotPoll', 'bot_poll_answers_poll_id_fkey', 'cascade'),
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'bot_poll_answers_account_id_fkey'),
    optionIds: p.array().columnType('smallint[]').fieldName('option_ids'),
  },
});
export type BotPollAnswer = InferEntity<typeof BotPollAnswerEntity>;
