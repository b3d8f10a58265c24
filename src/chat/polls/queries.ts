// The statements of polls: the poll and its POLL message, its options, the ballots and their recount.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { RoomRole } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';

const pollColumns = [
  'p.id',
  'p.room_id',
  'p.message_id',
  'p.creator_id',
  'p.question',
  'p.multiple_choice',
  'p.created_at',
  'p.closed_at',
  'p.closed_by',
] as const;

/**
 * The poll, only when the caller is a member of its live room. With a lock, the poll row is locked: votes take
 * `share` (many at once) and a close takes `update`, so no vote commits after the close that refused it.
 */
export function pollRowQuery(pollId: string, callerId: string, lock: 'share' | 'update' | null = null) {
  return chatDb
    .selectFrom('polls as p')
    .innerJoin('rooms as r', (j) => j.onRef('r.id', '=', 'p.room_id').on('r.deleted_at', 'is', null))
    .innerJoin('room_members as m', (j) => j.onRef('m.room_id', '=', 'p.room_id').on('m.account_id', '=', callerId))
    .select(pollColumns)
    .select(sql<RoomRole>`m.role`.as('my_role'))
    .where('p.id', '=', pollId)
    .$if(lock === 'share', (q) => q.forShare('p'))
    .$if(lock === 'update', (q) => q.forUpdate('p'));
}

/** A poll with the caller's role in its room. */
export type PollRow = NonNullable<Awaited<ReturnType<ReturnType<typeof pollRowQuery>['executeTakeFirst']>>>;

/** The poll as pollRowQuery reads it; undefined for an unknown poll or one of a room the caller is not in. */
export async function pollForCaller(
  db: Runner,
  pollId: string,
  callerId: string,
  lock: 'share' | 'update' | null = null,
): Promise<PollRow | undefined> {
  return firstRow(db, pollRowQuery(pollId, callerId, lock));
}

/** Counts are a recount of the ballots at read time, never stored counters. */
export async function pollResults(db: Runner, pollId: string, callerId: string) {
  return firstRow(
    db,
    chatDb.selectNoFrom((eb) => [
      eb.fn
        .coalesce(
          eb
            .selectFrom('poll_options as o')
            .where('o.poll_id', '=', pollId)
            .select(
              sql<OptionVotes[]>`json_agg(json_build_object(
               'id', o.id, 'text', o.text,
               'votes', (select count(*) from poll_ballots b where b.poll_id = o.poll_id and o.id = any(b.option_ids)))
             order by o.position)`.as('agg'),
            )
            .$asScalar(),
          sql<OptionVotes[]>`'[]'::json`,
        )
        .as('options'),
      eb
        .selectFrom('poll_ballots as b')
        .where('b.poll_id', '=', pollId)
        .select(sql<number>`count(*)::int`.as('n'))
        .$asScalar()
        .$notNull()
        .as('total_voters'),
      eb
        .selectFrom('poll_ballots as b')
        .where('b.poll_id', '=', pollId)
        .where('b.account_id', '=', callerId)
        .select('b.option_ids')
        .$asScalar()
        .as('my_vote'),
    ]),
  );
}

/** An option with its votes, as the recount's json gives it. */
interface OptionVotes {
  id: string;
  text: string;
  votes: number;
}

/**
 * Takes the room's next sequence number the way a send does (the room row's lock orders writers, so commit order
 * is sequence order), only for a member of a live room; undefined otherwise.
 */
export async function bumpRoomSeq(client: SqlClient, roomId: string, accountId: string, at: Date): Promise<number | undefined> {
  const bumped = await firstRow(
    client,
    chatDb
      .updateTable('rooms')
      .set((eb) => ({ last_seq: eb('last_seq', '+', 1), last_activity_at: at }))
      .where('id', '=', roomId)
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.exists(
          eb.selectFrom('room_members').select(sql.lit(1).as('one')).where('room_id', '=', roomId).where('account_id', '=', accountId),
        ),
      )
      .returning('last_seq'),
  );
  return bumped?.last_seq;
}

export interface NewPoll {
  pollId: string;
  messageId: string;
  roomId: string;
  seq: number;
  creatorId: string;
  question: string;
  multipleChoice: boolean;
  options: Array<{ id: string; text: string }>;
  at: Date;
}

/** The POLL message, the poll and its options in their order. */
export async function insertPoll(client: SqlClient, poll: NewPoll): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('messages').values({
      id: poll.messageId,
      room_id: poll.roomId,
      seq: poll.seq,
      sender_id: poll.creatorId,
      type: 'POLL',
      text: poll.question,
      created_at: poll.at,
      poll_id: poll.pollId,
    }),
  );
  await affected(
    client,
    chatDb.insertInto('polls').values({
      id: poll.pollId,
      room_id: poll.roomId,
      message_id: poll.messageId,
      creator_id: poll.creatorId,
      question: poll.question,
      multiple_choice: poll.multipleChoice,
      created_at: poll.at,
    }),
  );
  await affected(
    client,
    chatDb
      .insertInto('poll_options')
      .values(poll.options.map((option, i) => ({ id: option.id, poll_id: poll.pollId, position: i, text: option.text }))),
  );
}

/** The poll's option ids with their positions. */
export async function pollOptions(client: SqlClient, pollId: string): Promise<Array<{ id: string; position: number }>> {
  return rows(client, chatDb.selectFrom('poll_options').select(['id', 'position']).where('poll_id', '=', pollId));
}

/** Replaces the account's ballot in one upsert; true when it differs from the one it had. */
export async function upsertBallot(
  client: SqlClient,
  ballot: { pollId: string; accountId: string; optionIds: string[]; at: Date },
): Promise<boolean> {
  const changed = await affected(
    client,
    chatDb
      .insertInto('poll_ballots')
      .values({
        poll_id: ballot.pollId,
        account_id: ballot.accountId,
        option_ids: sql<string[]>`${ballot.optionIds}::uuid[]`,
        voted_at: ballot.at,
      })
      .onConflict((oc) =>
        oc
          .columns(['poll_id', 'account_id'])
          .doUpdateSet((eb) => ({ option_ids: eb.ref('excluded.option_ids'), voted_at: eb.ref('excluded.voted_at') }))
          .where('poll_ballots.option_ids', '<>', (eb) => eb.ref('excluded.option_ids')),
      ),
  );
  return changed > 0;
}

export async function markPollClosed(client: SqlClient, pollId: string, by: string, at: Date): Promise<void> {
  await affected(client, chatDb.updateTable('polls').set({ closed_at: at, closed_by: by }).where('id', '=', pollId));
}

/** The open poll of the message, locked for update. */
export async function lockOpenPollOfMessage(client: SqlClient, messageId: string): Promise<PollRow | undefined> {
  return firstRow(
    client,
    chatDb
      .selectFrom('polls as p')
      .select(pollColumns)
      .select(sql<PollRow['my_role']>`'MEMBER'`.as('my_role'))
      .where('p.message_id', '=', messageId)
      .where('p.closed_at', 'is', null)
      .forUpdate(),
  );
}

export const examples: QueryExamples = {
  pollRowQuery: () => pollRowQuery(example.id, example.otherId, 'share'),
  pollForCaller: (db) => pollForCaller(db, example.id, example.otherId, 'update'),
  pollResults: (db) => pollResults(db, example.id, example.otherId),
  bumpRoomSeq: (db) => bumpRoomSeq(db, example.id, example.otherId, example.at),
  insertPoll: (db) =>
    insertPoll(db, {
      pollId: example.id,
      messageId: example.otherId,
      roomId: example.id,
      seq: 7,
      creatorId: example.otherId,
      question: example.text,
      multipleChoice: false,
      options: [
        { id: example.id, text: example.text },
        { id: example.otherId, text: example.text },
      ],
      at: example.at,
    }),
  pollOptions: (db) => pollOptions(db, example.id),
  upsertBallot: (db) => upsertBallot(db, { pollId: example.id, accountId: example.otherId, optionIds: [example.id], at: example.at }),
  markPollClosed: (db) => markPollClosed(db, example.id, example.otherId, example.at),
  lockOpenPollOfMessage: (db) => lockOpenPollOfMessage(db, example.id),
};
