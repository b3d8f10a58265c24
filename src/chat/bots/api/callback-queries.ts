// The statement of answerCallbackQuery: a press is answered once, within the time a press is kept.
import type { SqlClient } from '../../../platform/db/sql.js';
import { firstRow } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** Marks the bot's press answered unless it is answered already or older than `since`; undefined when it was not. */
export async function answerPress(client: SqlClient, press: { id: string; botId: string; at: Date; since: Date }) {
  return firstRow(
    client,
    chatDb
      .updateTable('bot_callback_queries')
      .set({ answered_at: press.at })
      .where('id', '=', press.id)
      .where('bot_id', '=', press.botId)
      .where('answered_at', 'is', null)
      .where('created_at', '>', press.since)
      .returning(['room_id', 'message_id', 'account_id']),
  );
}

export const examples: QueryExamples = {
  answerPress: (db) => answerPress(db, { id: example.text, botId: example.id, at: example.at, since: example.at }),
};
