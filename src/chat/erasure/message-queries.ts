// The statements over an erased account's messages: the next batch of its message ids (in id order, after a
// cursor), and the anonymisation of a batch.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** Messages one batch handles at most (the most one expunge call takes). */
export const messageBatch = 500;

/** The account's next message ids in id order, after `after` when given. */
export async function messageIdsOf(db: Runner, accountId: string, after: string | null): Promise<string[]> {
  const found = await rows(
    db,
    chatDb
      .selectFrom('messages')
      .select('id')
      .where('sender_id', '=', accountId)
      .$if(after !== null, (q) => q.where('id', '>', after!))
      .orderBy('id')
      .limit(messageBatch),
  );
  return found.map((r) => r.id);
}

/**
 * Replaces the text of these messages of the account by the tombstone (a recalled message keeps no text) and drops
 * what else it carried: formatting, mention entities, attachments and keyboards. Returns each changed message's room.
 */
export async function anonymizeMessages(client: SqlClient, accountId: string, ids: string[], tombstone: string) {
  if (ids.length === 0) return [];
  return rows(
    client,
    chatDb
      .updateTable('messages')
      .set({
        text: sql<string | null>`case when recalled_at is null then ${tombstone}::text end`,
        formatting: null,
        entities: null,
        attachments: null,
        inline_keyboard: null,
        reply_markup: null,
      })
      .where('sender_id', '=', accountId)
      .where('id', 'in', ids)
      .returning(['id', 'room_id']),
  );
}

export const examples: QueryExamples = {
  messageIdsOf: (db) => messageIdsOf(db, example.id, example.id),
  anonymizeMessages: (db) => anonymizeMessages(db, example.id, [example.id], example.text),
};
