// poll and poll_answer updates for polls a bot sent (Telegram sends no others): each vote or close gives the bot the
// poll's new state, and for a poll that is not anonymous each voter whose ballot differs from what the bot was last
// told gives a poll_answer with the voter's options now. Who was told what is kept in bot_poll_answers, so a vote
// is reported once even when several are drained together; the state last sent is kept in bot_polls.told_poll, so
// two votes drained after both were cast do not report the same state twice.
import type { SqlClient } from '../../../platform/db/sql.js';
import { optionPositions, pollForBot } from '../poll-objects.js';
import { telegramUser } from '../telegram.js';
import { allows } from './allowed.js';
import type { NewUpdate, PlacedEvent } from './new-update.js';
import { ballotsWithTold, recordTold, recordToldPoll, senderOf } from './poll-queries.js';

export const pollTopics = new Set(['poll.voted', 'poll.closed']);

interface Answer {
  user: ReturnType<typeof telegramUser>;
  option_ids: number[];
  option_persistent_ids: string[];
}

async function answers(client: SqlClient, pollId: string): Promise<Answer[]> {
  const position = await optionPositions(client, pollId);
  const found: Answer[] = [];
  for (const ballot of await ballotsWithTold(client, pollId)) {
    const chosen = [...(ballot.option_ids as string[])].sort((a, b) => position.get(a)! - position.get(b)!);
    const optionIds = chosen.map((id) => position.get(id)!);
    if (ballot.told !== null && ballot.told.join(',') === optionIds.join(',')) continue;
    await recordTold(client, pollId, ballot.account_id, optionIds);
    found.push({
      user: telegramUser(ballot.bot_api_id, ballot.display_name, ballot.account_type, null),
      option_ids: optionIds,
      option_persistent_ids: chosen,
    });
  }
  return found;
}

async function updatesOf(client: SqlClient, event: PlacedEvent): Promise<NewUpdate[]> {
  const pollId = event.payload.pollId as string;
  const bot = await senderOf(client, pollId);
  if (!bot) return [];
  const made: NewUpdate[] = [];
  if (allows(bot.allowed_updates, 'poll')) {
    const poll = await pollForBot(client, pollId, { id: bot.id, accountId: bot.account_id });
    // Only a state the bot was not sent already.
    if (poll && (await recordToldPoll(client, pollId, JSON.stringify(poll))))
      made.push({ ord: event.ord, botId: bot.id, kind: 'poll', body: { poll } });
  }
  if (event.topic === 'poll.voted' && !bot.is_anonymous) {
    // The record of what was told moves on even when the bot takes no poll_answer updates, so none arrive late.
    const votes = await answers(client, pollId);
    if (allows(bot.allowed_updates, 'poll_answer'))
      for (const vote of votes)
        made.push({ ord: event.ord, botId: bot.id, kind: 'poll_answer', body: { poll_answer: { poll_id: pollId, ...vote } } });
  }
  return made;
}

export async function pollUpdates(client: SqlClient, events: PlacedEvent[]): Promise<NewUpdate[]> {
  const made: NewUpdate[] = [];
  for (const event of events) made.push(...(await updatesOf(client, event)));
  return made;
}
