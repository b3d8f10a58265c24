// The two statements of a thread reply: the room's sequence bump (the room row's lock first, as every send), then
// the reply with its root's counters, the automatic follows and the events, in one round trip each.
import { sql, type InferResult } from 'kysely';
import { fixedStatement, slot } from '../../platform/db/fixed-statement.js';
import type { SqlClient } from '../../platform/db/sql.js';
import { rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { messageColumnNames } from '../base/message-views.js';
import { chatDb } from '../base/tables.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { accountsAudience } from './thread-queries.js';

const one = sql.lit(1).as('one');
const following = sql.lit('FOLLOWING');

/** The values of the sequence bump, bound in this order; a null clientMessageId skips the retry check. */
export interface BumpValues extends Record<string, unknown> {
  room: string;
  sender: string;
  time: Date;
  clientMessageId: string | null;
}

/**
 * Takes the room row's lock first (as every send does, so replies and top-level messages share one commit order
 * and the root's last reply is the one with the highest seq), only for a member, and not for a retried send.
 */
function buildBump() {
  const room = slot<string>('room');
  const sender = slot<string>('sender');
  const cmid = slot<string | null>('clientMessageId');
  const query = chatDb
    .updateTable('rooms')
    .set((eb) => ({ last_seq: eb('last_seq', '+', sql.lit(1)), last_activity_at: slot<Date>('time') }))
    .where('id', '=', room)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('room_members').select(one).where('room_members.room_id', '=', room).where('room_members.account_id', '=', sender),
      ),
    )
    .where((eb) =>
      eb.or([
        sql<boolean>`${cmid}::text is null`,
        eb.not(
          eb.exists(
            eb
              .selectFrom('messages')
              .select(one)
              .where('messages.room_id', '=', room)
              .where('messages.sender_id', '=', sender)
              .where('messages.client_message_id', '=', cmid),
          ),
        ),
      ]),
    )
    .returning('last_seq');
  return fixedStatement<InferResult<typeof query>[number], BumpValues>(query, ['room', 'sender', 'time', 'clientMessageId']);
}

/** The room's next sequence number for a reply: no row when the sender is not a member or the send is a retry. */
export const bumpStatement = buildBump();

/** The values of a reply, bound in this order: `seq` from bumpStatement, `named` the message replied to. */
export interface ReplyValues extends Record<string, unknown> {
  id: string;
  room: string;
  seq: number;
  sender: string;
  text: string;
  clientMessageId: string | null;
  time: Date;
  named: string;
}

/**
 * The named message resolves to its root (a reply to a reply joins the same root); the root's counters move only
 * while it is not recalled (re-checked on the locked row); the root author and the replier follow unless their
 * row says UNFOLLOWED; the replier's read mark moves up to the reply. Nothing but the counters is written when
 * the root is missing or recalled, and the caller rolls those back.
 */
const id = slot<string>('id');
const room = slot<string>('room');
const seq = slot<number>('seq');
const sender = slot<string>('sender');
const time = slot<Date>('time');

/** The reply's root (named, then root with its counters moved) and the reply itself (msg). */
function replyMessage() {
  return chatDb
    .with('named', (db) =>
      db
        .selectFrom('messages')
        .select((eb) => eb.fn.coalesce('thread_root_id', 'id').as('root_id'))
        .where('id', '=', slot<string>('named'))
        .where('room_id', '=', room),
    )
    .with('root', (db) =>
      db
        .updateTable('messages as r')
        .from('named')
        .set((eb) => ({ reply_count: eb('r.reply_count', '+', sql.lit(1)), last_reply_at: time, last_reply_id: id }))
        .whereRef('r.id', '=', 'named.root_id')
        .where('r.recalled_at', 'is', null)
        .returning(['r.id', 'r.sender_id']),
    )
    .with('msg', (db) =>
      db
        .insertInto('messages')
        .columns(['id', 'room_id', 'seq', 'sender_id', 'type', 'text', 'client_message_id', 'created_at', 'thread_root_id'])
        .expression((eb) =>
          eb
            .selectFrom('root')
            .select([
              id.as('id'),
              room.as('room_id'),
              seq.as('seq'),
              sender.as('sender_id'),
              sql.lit('TEXT').as('type'),
              slot<string>('text').as('text'),
              slot<string | null>('clientMessageId').as('client_message_id'),
              time.as('created_at'),
              'root.id as thread_root_id',
            ]),
        )
        .onConflict((oc) =>
          oc.columns(['room_id', 'sender_id', 'client_message_id']).where('client_message_id', 'is not', null).doNothing(),
        )
        .returning(messageColumnNames),
    );
}

/** Who follows because of the reply: the root's author (author_follow) and the replier (replier_follow, prev before). */
function replyFollows() {
  return replyMessage()
    .with('prev', (db) =>
      db.selectFrom('thread_follows as f').innerJoin('root', 'root.id', 'f.root_id').select('f.state').where('f.account_id', '=', sender),
    )
    .with('author_follow', (db) =>
      db
        .insertInto('thread_follows')
        .columns(['root_id', 'account_id', 'room_id', 'state', 'last_read_seq', 'updated_at'])
        .expression((eb) =>
          eb
            .selectFrom('root')
            .innerJoin('msg', (join) => join.onTrue())
            .select([
              'root.id',
              'root.sender_id',
              room.as('room_id'),
              following.as('state'),
              sql.lit(0).as('last_read_seq'),
              time.as('updated_at'),
            ])
            .where('root.sender_id', '<>', sender)
            .where((eb) =>
              eb.exists(
                eb
                  .selectFrom('room_members')
                  .select(one)
                  .where('room_members.room_id', '=', room)
                  .whereRef('room_members.account_id', '=', 'root.sender_id'),
              ),
            ),
        )
        .onConflict((oc) =>
          oc
            .columns(['root_id', 'account_id'])
            .doUpdateSet((eb) => ({ state: following, updated_at: eb.ref('excluded.updated_at') }))
            .where('thread_follows.state', '=', sql.lit('NONE')),
        )
        .returning(['root_id', 'account_id']),
    )
    .with('replier_follow', (db) =>
      db
        .insertInto('thread_follows')
        .columns(['root_id', 'account_id', 'room_id', 'state', 'last_read_seq', 'updated_at'])
        .expression((eb) =>
          eb
            .selectFrom('root')
            .innerJoin('msg', (join) => join.onTrue())
            .select([
              'root.id',
              sender.as('account_id'),
              room.as('room_id'),
              following.as('state'),
              seq.as('last_read_seq'),
              time.as('updated_at'),
            ]),
        )
        .onConflict((oc) =>
          oc.columns(['root_id', 'account_id']).doUpdateSet((eb) => ({
            last_read_seq: eb.fn<number>('greatest', [eb.ref('thread_follows.last_read_seq'), eb.ref('excluded.last_read_seq')]),
            state: eb.case().when('thread_follows.state', '=', sql.lit('NONE')).then(following).else(eb.ref('thread_follows.state')).end(),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .returning(['root_id', 'account_id', 'state']),
    );
}

function buildReply() {
  const query = replyFollows()
    .with('followed', (db) =>
      db
        .selectFrom('author_follow')
        .select(['root_id', 'account_id'])
        .unionAll(
          db
            .selectFrom('replier_follow')
            .select(['root_id', 'account_id'])
            .where('state', '=', following)
            .where((eb) => eb(eb.fn.coalesce(eb.selectFrom('prev').select('state').$asScalar(), sql.lit('NONE')), '=', sql.lit('NONE'))),
        ),
    )
    .with('event', (db) =>
      outboxInsertFrom(
        db,
        db
          .selectFrom('msg')
          .select([
            chatTopic('message.created').as('topic'),
            sql<unknown>`jsonb_build_object('roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq,
               'threadRootId', thread_root_id, 'audience', jsonb_build_object('kind', 'room', 'roomId', room_id))`.as('payload'),
          ])
          .unionAll(
            db
              .selectFrom('followed as f')
              .innerJoin('msg', (join) => join.onTrue())
              .select([
                chatTopic('thread.followed').as('topic'),
                sql<unknown>`jsonb_build_object('rootId', f.root_id, 'roomId', msg.room_id, 'accountId', f.account_id,
                   'automatic', true, 'audience', ${accountsAudience(sql.ref('f.account_id'))})`.as('payload'),
              ]),
          ),
      ),
    )
    .selectFrom(chatDb.selectNoFrom(one).as('o'))
    .leftJoin('msg as m', (join) => join.onTrue())
    .select((eb) => [eb.selectFrom('named').select('root_id').as('named_root'), eb.selectFrom('root').select('id').as('root_id')])
    .selectAll('m');
  return fixedStatement<InferResult<typeof query>[number], ReplyValues>(query, [
    'id',
    'room',
    'seq',
    'sender',
    'text',
    'clientMessageId',
    'time',
    'named',
  ]);
}

/** The reply with its root's counters, follows and events; `id` is null when nothing was stored (see sendReply). */
export const replyStatement = buildReply();

/** Runs bumpStatement: the room's new last seq, undefined for a non-member or a retried send. */
export async function bumpForReply(client: SqlClient, values: BumpValues): Promise<number | undefined> {
  const [bump] = await rows(client, bumpStatement.bind(values));
  return bump?.last_seq;
}

/** Runs replyStatement: its one row. */
export async function insertReply(client: SqlClient, values: ReplyValues) {
  const [reply] = await rows(client, replyStatement.bind(values));
  return reply!;
}

export const examples: QueryExamples = {
  bumpForReply: (db) => bumpForReply(db, { room: example.id, sender: example.otherId, time: example.at, clientMessageId: example.text }),
  insertReply: (db) =>
    insertReply(db, {
      id: example.id,
      room: example.otherId,
      seq: 7,
      sender: example.otherId,
      text: example.text,
      clientMessageId: example.text,
      time: example.at,
      named: example.id,
    }),
};
