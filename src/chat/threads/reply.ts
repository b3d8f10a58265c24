// Thread replies, sent through POST /rooms/{roomId}/messages with threadRootId. A top-level send stays one
// statement (sendSql); a reply takes one transaction of two statements, because it must undo the room's
// sequence bump when its root turns out to be missing or recalled.
import { sql, type InferResult } from 'kysely';
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { fixedStatement, slot } from '../../platform/db/fixed-statement.js';
import { rows } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { firstSend } from '../base/retried-send.js';
import { messageColumnNames, messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import { chatDb } from '../base/tables.js';
import { accountsAudience } from './sql.js';
import { roomNotFound } from '../base/membership.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';

export interface ReplyInput {
  text: string;
  clientMessageId?: string;
  threadRootId: string;
}

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

/** Why a reply stored nothing; thrown inside the transaction so that it rolls back. */
class NoReply extends Error {
  constructor(readonly reason: 'not_member' | 'retry' | 'no_root' | 'recalled') {
    super(reason);
  }
}

/** `decorate` completes the stored reply inside its transaction (a send with attachments claims its uploads). */
export async function sendReply(
  deps: ChatDeps,
  caller: Caller,
  roomId: string,
  input: ReplyInput,
  decorate?: (client: SqlClient, row: MessageRow) => Promise<MessageRow>,
): Promise<MessageView> {
  const id = newId();
  const now = deps.clock.now();
  const cmid = input.clientMessageId ?? null;
  let row: MessageRow;
  try {
    row = await inTransaction(deps.sql, async (client) => {
      const [bump] = await rows(client, bumpStatement.bind({ room: roomId, sender: caller.accountId, time: now, clientMessageId: cmid }));
      const seq = bump?.last_seq;
      if (seq === undefined) throw new NoReply(cmid === null ? 'not_member' : 'retry');
      const [reply] = await rows(
        client,
        replyStatement.bind({
          id,
          room: roomId,
          seq,
          sender: caller.accountId,
          text: input.text,
          clientMessageId: cmid,
          time: now,
          named: input.threadRootId,
        }),
      );
      if (reply!.id !== null) {
        const stored = reply as unknown as MessageRow; // a left-joined message row: its columns are there when id is
        return decorate ? decorate(client, stored) : stored;
      }
      if (reply!.named_root === null) throw new NoReply('no_root');
      if (reply!.root_id === null) throw new NoReply('recalled');
      throw new NoReply('retry'); // a concurrent retry won the insert
    });
  } catch (err) {
    if (!(err instanceof NoReply)) throw err;
    switch (err.reason) {
      case 'not_member':
        throw roomNotFound();
      case 'no_root':
        throw chatErrors.notFound('Message', 'message_not_found');
      case 'recalled':
        throw chatErrors.conflict('message_recalled', 'The thread root was recalled; it takes no more replies.');
      case 'retry':
        return firstSend(deps, caller, roomId, cmid!);
    }
  }
  deps.queues.requestOutboxDrain();
  return messageView(row);
}
