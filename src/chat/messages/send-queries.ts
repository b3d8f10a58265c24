// The send statement: membership check, sequence bump, message insert and its outbox event in one round trip.
import { sql, type Expression, type InferResult, type QueryCreator } from 'kysely';
import { mentionCtes, mentionWrites, type MentionTables } from '../mentions/mention-queries.js';
import { chatDb } from '../base/tables.js';
import { messageColumnNames } from '../base/message-views.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { fixedStatement, slot } from '../../platform/db/fixed-statement.js';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, hotRows, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';

export interface SendInput {
  text: string;
  clientMessageId?: string;
  threadRootId?: string;
  attachments?: Array<{ uploadId: string }>;
}

/** The values of a send, bound in this order ($1, $2, ...); candidates are the text's mentions (jsonb text). */
export interface SendValues extends Record<string, unknown> {
  id: string;
  room: string;
  sender: string;
  text: string;
  time: Date;
  clientMessageId?: string;
  candidates?: string;
}
const valueOrder = ['id', 'room', 'sender', 'text', 'time', 'clientMessageId', 'candidates'] as const;

const one = sql.lit(1).as('one');

/** The columns the send writes; the others keep their defaults. */
const insertedColumns = (withClientMessageId: boolean, withMentions: boolean) => [
  ...(['id', 'room_id', 'seq', 'sender_id', 'type', 'text'] as const),
  ...(withClientMessageId ? (['client_message_id'] as const) : []),
  'created_at' as const,
  ...(withMentions ? (['entities'] as const) : []),
];

/** The sender's membership of the room. */
const membership = (room: Expression<string>, sender: Expression<string>) =>
  chatDb.selectFrom('room_members').select(one).where('room_members.room_id', '=', room).where('room_members.account_id', '=', sender);

/** The sender's stored message of this clientMessageId in the room: the send is a retry. */
const storedSend = (room: Expression<string>, sender: Expression<string>, clientMessageId: Expression<string>) =>
  chatDb
    .selectFrom('messages')
    .select(one)
    .where('messages.room_id', '=', room)
    .where('messages.sender_id', '=', sender)
    .where('messages.client_message_id', '=', clientMessageId);

/**
 * Sends in one statement: the room's sequence is bumped (the row lock orders concurrent sends, so commit
 * order equals sequence order and a forward scroll never skips a late commit), the message is inserted
 * and its event is written to the outbox, all only when the sender is a member. With a clientMessageId the
 * statement also skips a retry of a stored send; without one (the common case) it carries neither that check
 * nor the ON CONFLICT arbiter, whose speculative insertion costs the database on every send.
 */
function buildSend(withClientMessageId: boolean, withMentions: boolean) {
  const id = slot<string>('id');
  const room = slot<string>('room');
  const sender = slot<string>('sender');
  const text = slot<string>('text');
  const time = slot<Date>('time');
  const cmid = slot<string>('clientMessageId');
  // With mentions, the candidates resolve in the same statement: no extra round trip. Without, the mention CTEs are
  // absent and nothing below names them.
  const base = withMentions
    ? mentionCtes(chatDb, room, sender, slot<string>('candidates'))
    : (chatDb as unknown as QueryCreator<MentionTables>);
  const statement = base
    .with('bump', (q) =>
      q
        .updateTable('rooms')
        .set((eb) => ({ last_seq: eb('last_seq', '+', sql.lit(1)), last_activity_at: time }))
        .where('id', '=', room)
        .where((eb) => eb.exists(membership(room, sender)))
        // a retried send leaves the room untouched (no sequence gap, no false activity)
        .$if(withClientMessageId, (u) => u.where((eb) => eb.not(eb.exists(storedSend(room, sender, cmid)))))
        .returning('last_seq'),
    )
    .with('msg', (q) =>
      q
        .insertInto('messages')
        .columns(insertedColumns(withClientMessageId, withMentions))
        .expression((eb) =>
          eb
            .selectFrom('bump')
            .select((eb) => [
              id.as('id'),
              room.as('room_id'),
              'bump.last_seq',
              sender.as('sender_id'),
              sql.lit('TEXT').as('type'),
              text.as('text'),
              ...(withClientMessageId ? [cmid.as('client_message_id')] : []),
              time.as('created_at'),
              ...(withMentions ? [eb.selectFrom('ents').select('e').as('entities')] : []),
            ]),
        )
        .$if(withClientMessageId, (i) =>
          i.onConflict((oc) =>
            oc.columns(['room_id', 'sender_id', 'client_message_id']).where('client_message_id', 'is not', null).doNothing(),
          ),
        )
        .returning(messageColumnNames),
    )
    .with('event', (q) =>
      outboxInsertFrom(
        q,
        q.selectFrom('msg').select([
          chatTopic('message.created').as('topic'),
          sql<unknown>`jsonb_build_object('roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq,
             'threadRootId', thread_root_id, 'audience', jsonb_build_object('kind', 'room', 'roomId', room_id))`.as('payload'),
        ]),
      ),
    );
  const finished = withMentions ? (mentionWrites(statement) as unknown as typeof statement) : statement;
  const query = finished
    .selectFrom('bump as b')
    .leftJoin('msg as m', (join) => join.onTrue())
    .select('b.last_seq as bumped')
    .selectAll('m');
  return fixedStatement<InferResult<typeof query>[number], SendValues>(
    query,
    valueOrder.filter((v) => (v !== 'clientMessageId' || withClientMessageId) && (v !== 'candidates' || withMentions)),
  );
}

/** With a clientMessageId. */
export const sendStatement = buildSend(true, false);
/** Without a clientMessageId. */
export const plainSendStatement = buildSend(false, false);
/** sendStatement with the text's mention candidates. */
export const mentionSendStatement = buildSend(true, true);
/** plainSendStatement with the text's mention candidates. */
export const plainMentionSendStatement = buildSend(false, true);

/** The text of sendStatement, for statements run with the values in order: id, room, sender, text, time, clientMessageId. */
export const sendSql = sendStatement.text;

/**
 * Sends with the statement of the values' shape (a clientMessageId or none, mention candidates or none), as a named
 * prepared statement. No row: not a member, or a retry of a stored send; a row with a null id: a concurrent retry
 * won the insert.
 */
export async function sendMessage(db: Runner, values: SendValues) {
  const withMentions = values.candidates !== undefined;
  const statement =
    values.clientMessageId === undefined
      ? withMentions
        ? plainMentionSendStatement
        : plainSendStatement
      : withMentions
        ? mentionSendStatement
        : sendStatement;
  const [row] = await hotRows(db, statement.bind(values));
  return row;
}

/** sendStatement in the caller's transaction, beside other statements of the same send (a claim of files). */
export async function sendInTransaction(client: SqlClient, values: SendValues) {
  const [row] = await rows(client, sendStatement.bind(values));
  return row;
}

/** The sender's message of this clientMessageId in the room. */
export async function messageOfClientId(db: Runner, roomId: string, senderId: string, clientMessageId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('messages')
      .select(messageColumnNames)
      .where('room_id', '=', roomId)
      .where('sender_id', '=', senderId)
      .where('client_message_id', '=', clientMessageId),
  );
}

const exampleSend: SendValues = { id: example.id, room: example.otherId, sender: example.id, text: example.text, time: example.at };

export const examples: QueryExamples = {
  sendMessage: (db) =>
    sendMessage(db, { ...exampleSend, clientMessageId: example.text, candidates: '[{"o":0,"l":5,"k":"user","n":"alice","a":null}]' }),
  sendInTransaction: (db) => sendInTransaction(db, { ...exampleSend, clientMessageId: example.text }),
  messageOfClientId: (db) => messageOfClientId(db, example.otherId, example.id, example.text),
};
