// The statements of poll and poll_answer updates: the bot that sent the poll, the ballots that differ from what it
// was told, and the records of what it was told (bot_poll_answers, bot_polls.told_poll).
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** The live bot that sent the poll; undefined for a poll no bot sent. */
export async function senderOf(client: SqlClient, pollId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('bot_polls as p')
      .innerJoin('bots as b', (join) => join.onRef('b.id', '=', 'p.bot_id').on('b.deleted_at', 'is', null))
      .select(['b.id', 'b.account_id', 'b.allowed_updates', 'p.is_anonymous'])
      .where('p.poll_id', '=', pollId),
  );
}

/** Every ballot of the poll with the voter as Telegram shows it, and the options the bot was last told (or null). */
export async function ballotsWithTold(client: SqlClient, pollId: string) {
  return rows(
    client,
    chatDb
      .selectFrom('poll_ballots as v')
      .innerJoin('accounts as a', 'a.id', 'v.account_id')
      .leftJoin('bot_poll_answers as s', (join) => join.onRef('s.poll_id', '=', 'v.poll_id').onRef('s.account_id', '=', 'v.account_id'))
      .select(['v.account_id', 'v.option_ids', 'a.bot_api_id', 'a.display_name', 'a.account_type'])
      .select(sql<number[] | null>`s.option_ids`.as('told'))
      .where('v.poll_id', '=', pollId)
      .orderBy('v.voted_at')
      .orderBy('v.account_id'),
  );
}

/** Records the options (as positions) the bot is told the voter chose. */
export async function recordTold(client: SqlClient, pollId: string, accountId: string, optionIds: number[]): Promise<void> {
  await affected(
    client,
    chatDb
      .insertInto('bot_poll_answers')
      .values({ poll_id: pollId, account_id: accountId, option_ids: sql<string[]>`${optionIds}::smallint[]` })
      .onConflict((oc) => oc.columns(['poll_id', 'account_id']).doUpdateSet((eb) => ({ option_ids: eb.ref('excluded.option_ids') }))),
  );
}

/** Records the poll state (JSON) as sent to its bot; false when that very state was sent already. */
export async function recordToldPoll(client: SqlClient, pollId: string, state: string): Promise<boolean> {
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

export const examples: QueryExamples = {
  senderOf: (db) => senderOf(db, example.id),
  ballotsWithTold: (db) => ballotsWithTold(db, example.id),
  recordTold: (db) => recordTold(db, example.id, example.otherId, [0, 2]),
  recordToldPoll: (db) => recordToldPoll(db, example.id, '{}'),
};
