// The SQL that turns a message's mention candidates (parse.ts) into its entities and its mentions rows. One set of
// CTEs serves the send statement (where the message is inserted in the same statement) and the statements that
// record or recompute the mentions of a stored message (replies, sends with files, edits).
import { sql, type Expression, type QueryCreator } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { chatDb, type ChatTables } from '../base/tables.js';
import type { MentionEntity } from '../base/message-views.js';

type Candidate = { o: number; l: number; k: string; n: string | null; a: string | null };

/** The tables of a statement once mentionCtes has added its CTEs. */
export type MentionTables = ChatTables & {
  cand: Candidate;
  hit: { o: number; l: number; k: string; account_id: string | null };
  ents: { e: MentionEntity[] | null };
  notified: { account_id: string };
};

/** What mentionWrites needs of the stored message, in CTE `msg`. */
type MessageFacts = { id: string; room_id: string; seq: number; sender_id: string; created_at: Date; thread_root_id: string | null };

const user = sql.lit('user');

/** The message's entities: one per hit, in text order. */
const entitiesOfHits = sql<MentionEntity[] | null>`jsonb_agg(jsonb_strip_nulls(jsonb_build_object('type', 'mention', 'offset', o,
  'length', l, 'accountId', account_id, 'broadcast', case when k = 'user' then null else k end)) order by o)`;
const one = sql.lit(1).as('one');

/** Whether the sender is an OWNER or ADMIN of the room: who may mention @all and @here. */
const senderManages = (roomId: Expression<string>, senderId: Expression<string>) =>
  chatDb
    .selectFrom('room_members')
    .select(one)
    .where('room_id', '=', roomId)
    .where('account_id', '=', senderId)
    .where('role', 'in', [sql.lit('OWNER'), sql.lit('ADMIN')]);

/**
 * CTEs `cand`, `hit`, `ents` and `notified`, given the room, the sender and the candidates (jsonb text). A name
 * resolves among the accounts of the sender's customer (one index probe on accounts_username per name) and only to
 * a member of the room; an id likewise only to a member; @all and @here only when the sender is an OWNER or ADMIN of
 * the room. Everything else stays plain text: no entity, nobody notified.
 * `notified` holds every account to notify: the members named, and for @all / @here every member; never the sender.
 */
export function mentionCtes(
  db: QueryCreator<ChatTables>,
  room: Expression<string>,
  sender: Expression<string>,
  candidates: Expression<string>,
): QueryCreator<MentionTables> {
  const roomId = sql<string>`${room}::uuid`;
  const senderId = sql<string>`${sender}::uuid`;
  return db
    .with('cand', (q) =>
      q
        .selectFrom(sql<Candidate>`jsonb_to_recordset(${candidates}::jsonb)`.as<'c'>(sql`c(o int, l int, k text, n text, a uuid)`))
        .select(['c.o', 'c.l', 'c.k', 'c.n', 'c.a']),
    )
    .with('hit', (q) =>
      // lateral lookups: one probe of accounts_username and of room_members' key per candidate, whatever the size of
      // the customer or the room (a join could hash every account of the customer or every member of the room);
      // limit 1 (each is unique anyway) keeps the planner from pulling the subqueries up into such a join
      q
        .selectFrom('cand as c')
        .crossJoinLateral((eb) =>
          eb
            .selectFrom('accounts as x')
            .select('x.id')
            .where('x.customer_account_id', '=', eb.selectFrom('accounts').select('customer_account_id').where('id', '=', senderId))
            .where(sql`lower(x.username)`, '=', eb.ref('c.n'))
            .limit(sql.lit(1))
            .as('a'),
        )
        .crossJoinLateral((eb) =>
          eb
            .selectFrom('room_members')
            .select(one)
            .where('room_id', '=', roomId)
            .whereRef('account_id', '=', 'a.id')
            .limit(sql.lit(1))
            .as('rm'),
        )
        .select(['c.o', 'c.l', 'c.k', 'a.id as account_id'])
        .where('c.n', 'is not', null)
        .$castTo<MentionTables['hit']>()
        .unionAll((eb) =>
          eb
            .selectFrom('cand as c')
            .crossJoinLateral((eb) =>
              eb
                .selectFrom('room_members')
                .select(one)
                .where('room_id', '=', roomId)
                .whereRef('account_id', '=', 'c.a')
                .limit(sql.lit(1))
                .as('rm'),
            )
            .select(['c.o', 'c.l', 'c.k', 'c.a as account_id'])
            .where('c.a', 'is not', null),
        )
        .unionAll((eb) =>
          eb
            .selectFrom('cand as c')
            .select(['c.o', 'c.l', 'c.k', sql<string>`null`.as('account_id')])
            .where('c.k', '<>', user)
            .where((eb) => eb.exists(senderManages(roomId, senderId))),
        ),
    )
    .with('ents', (q) => q.selectFrom('hit').select(entitiesOfHits.as('e')))
    .with('notified', (q) =>
      q
        .selectFrom('hit')
        .select('account_id')
        .where('account_id', 'is not', null)
        .where('account_id', '<>', senderId)
        .union((eb) =>
          eb
            .selectFrom('room_members as m')
            .select('m.account_id')
            .where('m.room_id', '=', roomId)
            .where('m.account_id', '<>', senderId)
            .where((eb) => eb.exists(eb.selectFrom('hit').select(one).where('k', '<>', user))),
        ),
    ) as unknown as QueryCreator<MentionTables>;
}

/**
 * The mentions rows and the mention.created event of the new message in CTE `msg` (id, room_id, seq, sender_id,
 * created_at, thread_root_id): one event to all notified accounts. A mention row already there (an edit that keeps
 * a mention) is kept as it is, read state included, and notifies nobody again.
 */
/** `db` must hold mentionCtes' CTEs and `msg`. */
export function mentionWrites<DB>(db: QueryCreator<DB>): QueryCreator<DB & { men: { account_id: string }; men_event: object }> {
  const q = db as unknown as QueryCreator<MentionTables & { msg: MessageFacts }>;
  return q
    .with('men', (q) =>
      q
        .insertInto('mentions')
        .columns(['account_id', 'message_id', 'room_id', 'seq', 'created_at'])
        .expression((eb) =>
          eb.selectFrom('notified as n').crossJoin('msg as m').select(['n.account_id', 'm.id', 'm.room_id', 'm.seq', 'm.created_at']),
        )
        .onConflict((oc) => oc.columns(['account_id', 'message_id']).doNothing())
        .returning('account_id'),
    )
    .with('men_event', (q) =>
      outboxInsertFrom(
        q,
        q
          .selectFrom('msg as m')
          .select([
            chatTopic('mention.created').as('topic'),
            sql<unknown>`jsonb_build_object('roomId', m.room_id, 'messageId', m.id, 'senderId', m.sender_id, 'seq', m.seq,
             'threadRootId', m.thread_root_id,
             'audience', jsonb_build_object('kind', 'accounts', 'accountIds', (select jsonb_agg(account_id) from men)))`.as('payload'),
          ])
          .where((eb) => eb.exists(eb.selectFrom('men').select(one))),
      ),
    ) as unknown as QueryCreator<DB & { men: { account_id: string }; men_event: object }>;
}

/** The mention.removed event of the accounts in CTE `gone`, for message `messageId` of `roomId`. */
function removedEvent<DB>(db: QueryCreator<DB>, messageId: string, roomId: string) {
  const q = db as unknown as QueryCreator<ChatTables & { gone: { account_id: string } }>;
  return outboxInsertFrom(
    q,
    q
      .selectNoFrom([
        chatTopic('mention.removed').as('topic'),
        sql<unknown>`jsonb_build_object('roomId', ${roomId}::uuid, 'messageId', ${messageId}::uuid,
           'audience', jsonb_build_object('kind', 'accounts', 'accountIds', (select jsonb_agg(account_id) from gone)))`.as('payload'),
      ])
      .where((eb) => eb.exists(eb.selectFrom('gone').select(one))),
  );
}

/**
 * Records (or recomputes, on an edit) the mentions of a stored message: its entities, the rows of the accounts
 * it now mentions, and the withdrawal of those it no longer does (their rows deleted, mention.removed to them).
 * Returns the message's entities (null when none).
 */
export async function recordMessageMentions(
  client: SqlClient,
  messageId: string,
  roomId: string,
  senderId: string,
  candidates: string,
): Promise<MentionEntity[] | null> {
  const withMessage = mentionCtes(chatDb, sql.val(roomId), sql.val(senderId), sql.val(candidates))
    .with('msg', (q) =>
      q
        .updateTable('messages')
        .set((eb) => ({ entities: eb.selectFrom('ents').select('e') }))
        .where('id', '=', messageId)
        .where('room_id', '=', roomId)
        .returning(['id', 'room_id', 'seq', 'sender_id', 'created_at', 'thread_root_id', 'entities']),
    )
    .with('gone', (q) =>
      q
        .deleteFrom('mentions')
        .where('message_id', '=', messageId)
        .where('account_id', 'not in', (eb) => eb.selectFrom('notified').select('account_id'))
        .returning(['account_id', 'room_id']),
    );
  const row = await firstRow(
    client,
    mentionWrites(withMessage.with('gone_event', (q) => removedEvent(q, messageId, roomId))).selectNoFrom((eb) =>
      eb.selectFrom('msg').select('entities').as('entities'),
    ),
  );
  return (row?.entities as MentionEntity[] | null | undefined) ?? null;
}

/** Withdraws every mention of a message (a recall). */
export async function withdrawMessageMentions(client: SqlClient, messageId: string, roomId: string): Promise<void> {
  await rows(
    client,
    chatDb
      .with('gone', (q) => q.deleteFrom('mentions').where('message_id', '=', messageId).returning('account_id'))
      .with('gone_event', (q) => removedEvent(q, messageId, roomId))
      .selectNoFrom(sql.lit(1).as('done')),
  );
}

const exampleCandidates = JSON.stringify([{ o: 0, l: 5, k: 'user', n: 'alice', a: null }]);

export const examples: QueryExamples = {
  mentionCtes: () =>
    mentionCtes(chatDb, sql.val(example.id), sql.val(example.otherId), sql.val(exampleCandidates)).selectFrom('ents').select('e'),
  mentionWrites: () =>
    mentionWrites(
      mentionCtes(chatDb, sql.val(example.id), sql.val(example.otherId), sql.val(exampleCandidates)).with('msg', (q) =>
        q.selectFrom('messages').select(['id', 'room_id', 'seq', 'sender_id', 'created_at', 'thread_root_id']).where('id', '=', example.id),
      ),
    )
      .selectFrom('men')
      .select('account_id'),
  recordMessageMentions: (db) => recordMessageMentions(db, example.id, example.otherId, example.id, exampleCandidates),
  withdrawMessageMentions: (db) => withdrawMessageMentions(db, example.id, example.otherId),
};
