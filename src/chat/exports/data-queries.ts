// The reads an export makes of the account's own data, each a keyset page so that a large history is read in
// batches and never by one unbounded select.
import { sql } from 'kysely';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** The account's messages after the key (created_at, id), oldest first, with their rooms' names. */
export async function messagesPage(db: Runner, accountId: string, after: { at: Date; id: string } | null, limit: number) {
  let query = chatDb
    .selectFrom('messages as m')
    .innerJoin('rooms as r', 'r.id', 'm.room_id')
    .select([
      'm.id',
      'm.room_id',
      'r.name as room_name',
      'm.type',
      'm.created_at',
      'm.edited_at',
      'm.recalled_at',
      'm.thread_root_id',
      'm.text',
      'm.formatting',
      'm.attachments',
    ])
    .where('m.sender_id', '=', accountId);
  if (after) query = query.where((eb) => eb(eb.refTuple('m.created_at', 'm.id'), '>', eb.tuple(after.at, after.id)));
  return rows(db, query.orderBy('m.created_at').orderBy('m.id').limit(limit));
}

/** The account's reactions after the key (message_id, emoji). */
export async function reactionsPage(db: Runner, accountId: string, after: { messageId: string; emoji: string } | null, limit: number) {
  let query = chatDb
    .selectFrom('message_reactions as x')
    .innerJoin('messages as m', 'm.id', 'x.message_id')
    .select(['x.message_id', 'm.room_id', 'x.emoji', 'x.created_at'])
    .where('x.account_id', '=', accountId);
  if (after) query = query.where((eb) => eb(eb.refTuple('x.message_id', 'x.emoji'), '>', eb.tuple(after.messageId, after.emoji)));
  return rows(db, query.orderBy('x.message_id').orderBy('x.emoji').limit(limit));
}

/** The account's saved cards after the id. */
export async function savedPage(db: Runner, accountId: string, after: string | null, limit: number) {
  let query = chatDb
    .selectFrom('saved_messages')
    .select(['id', 'room_id', 'message_id', 'note', 'saved_at', 'updated_at'])
    .where('account_id', '=', accountId);
  if (after !== null) query = query.where('id', '>', after);
  return rows(db, query.orderBy('id').limit(limit));
}

/** The account's drafts after the room id. */
export async function draftsPage(db: Runner, accountId: string, after: string | null, limit: number) {
  let query = chatDb.selectFrom('drafts').select(['room_id', 'text', 'updated_at']).where('account_id', '=', accountId);
  if (after !== null) query = query.where('room_id', '>', after);
  return rows(db, query.orderBy('room_id').limit(limit));
}

/** The account's profile as its settings show it. */
export async function profileOf(db: Runner, accountId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('accounts')
      .select(['id', 'display_name', 'username', 'email', 'avatar_url', 'team', 'department', 'role', 'tags', 'created_at'])
      .where('id', '=', accountId),
  );
}

/** The account's labels (at most 100 per account) with the rooms each is on. */
export async function labelsOf(db: Runner, accountId: string) {
  return rows(
    db,
    chatDb
      .selectFrom('labels as l')
      .select((eb) => [
        'l.id',
        'l.name',
        'l.color',
        'l.created_at',
        eb
          .selectFrom('room_labels as rl')
          .select(sql<string[]>`coalesce(array_agg(rl.room_id order by rl.room_id), '{}')`.as('room_ids'))
          .whereRef('rl.label_id', '=', 'l.id')
          .as('room_ids'),
      ])
      .where('l.owner_id', '=', accountId)
      .orderBy('l.created_at')
      .orderBy('l.id'),
  );
}

const key = { at: example.at, id: example.otherId };

export const examples: QueryExamples = {
  messagesPage: (db) => messagesPage(db, example.id, key, 500),
  reactionsPage: (db) => reactionsPage(db, example.id, { messageId: example.otherId, emoji: example.text }, 500),
  savedPage: (db) => savedPage(db, example.id, example.text, 500),
  draftsPage: (db) => draftsPage(db, example.id, example.otherId, 500),
  profileOf: (db) => profileOf(db, example.id),
  labelsOf: (db) => labelsOf(db, example.id),
};
