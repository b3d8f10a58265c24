// The statements of reactions: one row per (message, emoji, account); the summary is counted from the rows.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** Per emoji: its count and whether `accountId` is among them, in the order each emoji was first used on the message. */
export async function reactionSummary(db: Runner, messageId: string, accountId: string) {
  return rows(
    db,
    chatDb
      .selectFrom('message_reactions')
      .select(['emoji', sql<number>`count(*)::int`.as('count'), sql<boolean>`bool_or(account_id = ${accountId})`.as('reacted_by_me')])
      .where('message_id', '=', messageId)
      .groupBy('emoji')
      .orderBy(sql`min(created_at)`)
      .orderBy('emoji'),
  );
}

/** Adds the account's reaction; false when it was there already. */
export async function addReaction(
  client: SqlClient,
  reaction: { messageId: string; emoji: string; accountId: string; at: Date },
): Promise<boolean> {
  const added = await affected(
    client,
    chatDb
      .insertInto('message_reactions')
      .values({ message_id: reaction.messageId, emoji: reaction.emoji, account_id: reaction.accountId, created_at: reaction.at })
      .onConflict((oc) => oc.columns(['message_id', 'emoji', 'account_id']).doNothing()),
  );
  return added > 0;
}

/** Removes the account's reaction; false when it was not there. */
export async function removeReaction(client: SqlClient, messageId: string, emoji: string, accountId: string): Promise<boolean> {
  const removed = await affected(
    client,
    chatDb
      .deleteFrom('message_reactions')
      .where('message_id', '=', messageId)
      .where('emoji', '=', emoji)
      .where('account_id', '=', accountId),
  );
  return removed > 0;
}

export const examples: QueryExamples = {
  reactionSummary: (db) => reactionSummary(db, example.id, example.otherId),
  addReaction: (db) => addReaction(db, { messageId: example.id, emoji: '👍', accountId: example.otherId, at: example.at }),
  removeReaction: (db) => removeReaction(db, example.id, '👍', example.otherId),
};
