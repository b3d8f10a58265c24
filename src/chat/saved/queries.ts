// The statements of saved messages: the caller's cards, with the message as the caller sees it.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { hiddenBy } from '../base/message-queries.js';
import { chatDb } from '../base/tables.js';

/** Cards of the caller whose room it is still a member of, with the message as the caller sees it. */
const cardSelect = (accountId: string) =>
  chatDb
    .selectFrom('saved_messages as s')
    .innerJoin('messages as x', 'x.id', 's.message_id')
    .innerJoin('room_members as m', (j) => j.onRef('m.room_id', '=', 's.room_id').onRef('m.account_id', '=', 's.account_id'))
    .select(['s.id as saved_id', 's.note', 's.saved_at', 's.updated_at as saved_updated_at'])
    .select([
      'x.id',
      'x.room_id',
      'x.seq',
      'x.sender_id',
      'x.type',
      'x.text',
      'x.client_message_id',
      'x.thread_root_id',
      'x.created_at',
      'x.edited_at',
      'x.recalled_at',
      'x.forwarded_from_room_id',
      'x.forwarded_from_message_id',
      'x.poll_id',
      'x.attachments',
      'x.inline_keyboard',
      'x.entities',
      'x.reply_markup',
      'x.formatting',
      'x.reply_count',
    ])
    .select((eb) => eb.exists(hiddenBy(accountId, eb.ref('x.id'))).as('hidden_for_me'))
    .where('s.account_id', '=', accountId);

export type CardRow = NonNullable<Awaited<ReturnType<ReturnType<typeof cardSelect>['executeTakeFirst']>>>;

/** Newest saved first, `count` cards after the keyset (saved_at, id) when given (the index saved_messages_feed). */
export async function savedCards(
  db: Runner,
  accountId: string,
  after: { at: string; id: string } | null,
  count: number,
): Promise<CardRow[]> {
  return rows(
    db,
    cardSelect(accountId)
      .$if(after !== null, (q) => q.where(sql<boolean>`(s.saved_at, s.id) < (${after!.at}::timestamptz, ${after!.id}::text)`))
      .orderBy('s.saved_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(count),
  );
}

export async function savedCard(db: Runner, accountId: string, savedId: string): Promise<CardRow | undefined> {
  return firstRow(db, cardSelect(accountId).where('s.id', '=', savedId));
}

/** Whether the room's message is recalled, undefined when the room has no such message. */
export async function messageRecalled(client: SqlClient, roomId: string, messageId: string): Promise<boolean | undefined> {
  // key share: a recall of the message waits for this save, or wins and is seen here.
  const found = await firstRow(
    client,
    chatDb
      .selectFrom('messages')
      .select((eb) => eb('recalled_at', 'is not', null).as('recalled'))
      .where('room_id', '=', roomId)
      .where('id', '=', messageId)
      .forKeyShare(),
  );
  return found === undefined ? undefined : Boolean(found.recalled);
}

/**
 * Writes the card, or on a repeat its note when `noteGiven` and it differs; undefined when nothing was written,
 * else the card's id and whether it is new.
 */
export async function upsertSavedCard(
  client: SqlClient,
  card: { id: string; accountId: string; roomId: string; messageId: string; note: string | null; at: Date },
  noteGiven: boolean,
): Promise<{ id: string; inserted: boolean } | undefined> {
  return firstRow(
    client,
    chatDb
      .insertInto('saved_messages')
      .values({
        id: card.id,
        account_id: card.accountId,
        room_id: card.roomId,
        message_id: card.messageId,
        note: card.note,
        saved_at: card.at,
        updated_at: card.at,
      })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'message_id'])
          .doUpdateSet((eb) => ({ note: eb.ref('excluded.note'), updated_at: eb.ref('excluded.updated_at') }))
          .where(sql<boolean>`${noteGiven}::boolean`)
          .where('saved_messages.note', 'is distinct from', (eb) => eb.ref('excluded.note')),
      )
      .returning(['id', sql<boolean>`xmax = 0`.as('inserted')]),
  );
}

/** The id of the account's card of the message. */
export async function savedIdOf(client: SqlClient, accountId: string, messageId: string): Promise<string | undefined> {
  const existing = await firstRow(
    client,
    chatDb.selectFrom('saved_messages').select('id').where('account_id', '=', accountId).where('message_id', '=', messageId),
  );
  return existing?.id;
}

/**
 * Locks the account's card and writes the note when it differs, in one statement: undefined when the account has
 * no such card; `changed` with the card's origin when the note was written.
 */
export async function updateSavedNote(client: SqlClient, accountId: string, savedId: string, note: string | null, at: Date) {
  return firstRow(
    client,
    chatDb
      .with('card', (db) =>
        db.selectFrom('saved_messages').select(['id', 'note']).where('id', '=', savedId).where('account_id', '=', accountId).forUpdate(),
      )
      .with('moved', (db) =>
        db
          .updateTable('saved_messages as s')
          .set({ note, updated_at: at })
          .from('card')
          .whereRef('s.id', '=', 'card.id')
          .where('card.note', 'is distinct from', note)
          .returning(['s.room_id', 's.message_id']),
      )
      .selectNoFrom((eb) => [
        eb.selectFrom('moved').select('room_id').$asScalar().as('room_id'),
        eb.selectFrom('moved').select('message_id').$asScalar().as('message_id'),
        eb.exists(eb.selectFrom('moved').select(sql.lit(1).as('one'))).as('changed'),
      ])
      .where((eb) => eb.exists(eb.selectFrom('card').select(sql.lit(1).as('one')))),
  );
}

/** Deletes the account's card; its origin, or undefined when there was none. */
export async function deleteSavedCard(client: SqlClient, accountId: string, savedId: string) {
  return firstRow(
    client,
    chatDb.deleteFrom('saved_messages').where('id', '=', savedId).where('account_id', '=', accountId).returning(['room_id', 'message_id']),
  );
}

export const examples: QueryExamples = {
  savedCards: (db) => savedCards(db, example.id, { at: example.at.toISOString(), id: example.otherId }, 51),
  savedCard: (db) => savedCard(db, example.id, example.otherId),
  messageRecalled: (db) => messageRecalled(db, example.id, example.otherId),
  upsertSavedCard: (db) =>
    upsertSavedCard(
      db,
      { id: example.id, accountId: example.otherId, roomId: example.id, messageId: example.otherId, note: example.text, at: example.at },
      true,
    ),
  savedIdOf: (db) => savedIdOf(db, example.id, example.otherId),
  updateSavedNote: (db) => updateSavedNote(db, example.id, example.otherId, example.text, example.at),
  deleteSavedCard: (db) => deleteSavedCard(db, example.id, example.otherId),
};
