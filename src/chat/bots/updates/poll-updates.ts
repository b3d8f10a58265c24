// poll and poll_answer updates for polls a bot sent (Telegram sends no others): each vote or close gives the bot the
// poll's new state, and for a poll that is not anonymous each voter whose ballot differs from what the bot was last
// told gives a poll_answer with the voter's options now. Who was told what is kept in bot_poll_answers, so a vote
// is reported once even when several are drained together; the state last sent is kept in bot_polls.told_poll, so
// two votes drained after both were cast do not report the same state twice.
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../../platform/db/typed.js';
import { chatDb } from '../../base/tables.js';
import { optionPositions, pollForBot } from '../poll-objects.js';
import { telegramUser } from '../telegram.js';
import { allows } from './allowed.js';
import type { NewUpdate, PlacedEvent } from './new-update.js';

export const pollTopics = new Set(['poll.voted', 'poll.closed']);

const senderOf = (pollId: string) =>
  chatDb
    .selectFrom('bot_polls as p')
    .innerJoin('bots as b', (join) => join.onRef('b.id', '=', 'p.bot_id').on('b.deleted_at', 'is', null))
    .select(['b.id', 'b.account_id', 'b.allowed_updates', 'p.is_anonymous'])
    .where('p.poll_id', '=', pollId);

/** Ballots that differ from what the bot was told, with the voter as Telegram shows it. */
const changedBallots = (pollId: string) =>
  chatDb
    .selectFrom('poll_ballots as v')
    .innerJoin('accounts as a', 'a.id', 'v.account_id')
    .leftJoin('bot_poll_answers as s', (join) => join.onRef('s.poll_id', '=', 'v.poll_id').onRef('s.account_id', '=', 'v.account_id'))
    .select(['v.account_id', 'v.option_ids', 'a.bot_api_id', 'a.display_name', 'a.account_type'])
    .select(sql<number[] | null>`s.option_ids`.as('told'))
    .where('v.poll_id', '=', pollId)
    .orderBy('v.voted_at')
    .orderBy('v.account_id');

interface Answer {
  user: ReturnType<typeof telegramUser>;
  option_ids: number[];
  option_persistent_ids: string[];
}

async function answers(client: SqlClient, pollId: string): Promise<Answer[]> {
  const position = await optionPositions(client, pollId);
  const found: Answer[] = [];
  for (const ballot of await rows(client, changedBallots(pollId))) {
    const chosen = [...(ballot.option_ids as string[])].sort((a, b) => position.get(a)! - position.get(b)!);
    const optionIds = chosen.map((id) => position.get(id)!);
    if (ballot.told !== null && ballot.told.join(',') === optionIds.join(',')) continue;
    await affected(
      client,
      chatDb
        .insertInto('bot_poll_answers')
        .values({ poll_id: pollId, account_id: ballot.account_id, option_ids: sql<string[]>`${optionIds}::smallint[]` })
        .onConflict((oc) => oc.columns(['poll_id', 'account_id']).doUpdateSet((eb) => ({ option_ids: eb.ref('excluded.option_ids') }))),
    );
    found.push({
      user: telegramUser(ballot.bot_api_id, ballot.display_name, ballot.account_type, null),
      option_ids: optionIds,
      option_persistent_ids: chosen,
    });
  }
  return found;
}

/** Records the poll state as sent to its bot; false when that very state was sent already. */
async function newlyTold(client: SqlClient, pollId: string, poll: unknown): Promise<boolean> {
  const state = JSON.stringify(poll);
  const changed = await affected(
    client,
    chatDb
      .updateTable('bot_polls')
      .set({ told_poll: sql`${state}::jsonb` })
      .where('poll_id', '=', pollId)
      .where(sql<boolean>`told_poll is distinct from ${state}::jsonb`),
  );
  return changed > 0;
}

async function updatesOf(client: SqlClient, event: PlacedEvent): Promise<NewUpdate[]> {
  const pollId = event.payload.pollId as string;
  const bot = await firstRow(client, senderOf(pollId));
  if (!bot) return [];
  const made: NewUpdate[] = [];
  if (allows(bot.allowed_updates, 'poll')) {
    const poll = await pollForBot(client, pollId, { id: bot.id, accountId: bot.account_id });
    if (poll && (await newlyTold(client, pollId, poll))) made.push({ ord: event.ord, botId: bot.id, kind: 'poll', body: { poll } });
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
