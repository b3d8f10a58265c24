// The statements of Telegram's Poll object over the chat's poll: what sendPoll said about it (bot_polls) and the
// positions of its options.
import { sql } from 'kysely';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { StoredFormatting } from '../base/formatting.js';
import { chatDb } from '../base/tables.js';

export async function botPollRow(db: Runner, pollId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('bot_polls')
      .select(['bot_id', 'is_anonymous', 'quiz', 'explanation'])
      .select(sql<number[] | null>`correct_option_ids`.as('correct_option_ids'))
      .select((eb) => eb.ref('explanation_entities').$castTo<StoredFormatting[] | null>().as('explanation_entities'))
      .where('poll_id', '=', pollId),
  );
}

export async function optionPositionRows(db: Runner, pollId: string) {
  return rows(db, chatDb.selectFrom('poll_options').select(['id', 'position']).where('poll_id', '=', pollId));
}

export const examples: QueryExamples = {
  botPollRow: (db) => botPollRow(db, example.id),
  optionPositionRows: (db) => optionPositionRows(db, example.id),
};
