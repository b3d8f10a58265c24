// A poll with its results from one caller's view, read in one statement (one snapshot: the counts, the total and
// the caller's vote always agree with each other).
import { sql } from 'kysely';
import { firstRow, type Runner } from '../../platform/db/typed.js';
import type { RoomRole } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';

export interface PollOptionView {
  id: string;
  text: string;
  votes: number;
}

export interface PollView {
  id: string;
  roomId: string;
  messageId: string;
  creatorId: string;
  question: string;
  options: PollOptionView[];
  multipleChoice: boolean;
  closed: boolean;
  closedAt: string | null;
  closedBy: string | null;
  myVote: string[];
  totalVoters: number;
  createdAt: string;
}

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

export const pollColumns = [
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

/** A poll with the caller's role in its room. */
export type PollRow = NonNullable<Awaited<ReturnType<ReturnType<typeof pollRowQuery>['executeTakeFirst']>>>;

/** Counts are a recount of the ballots at read time, never stored counters. */
const resultsQuery = (pollId: string, callerId: string) =>
  chatDb.selectNoFrom((eb) => [
    eb.fn
      .coalesce(
        eb
          .selectFrom('poll_options as o')
          .where('o.poll_id', '=', pollId)
          .select(
            sql<PollOptionView[]>`json_agg(json_build_object(
               'id', o.id, 'text', o.text,
               'votes', (select count(*) from poll_ballots b where b.poll_id = o.poll_id and o.id = any(b.option_ids)))
             order by o.position)`.as('agg'),
          )
          .$asScalar(),
        sql<PollOptionView[]>`'[]'::json`,
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
  ]);

export async function pollView(db: Runner, poll: PollRow, callerId: string): Promise<PollView> {
  const results = (await firstRow(db, resultsQuery(poll.id, callerId)))!;
  return {
    id: poll.id,
    roomId: poll.room_id,
    messageId: poll.message_id,
    creatorId: poll.creator_id,
    question: poll.question,
    options: results.options.map((o) => ({ id: o.id, text: o.text, votes: Number(o.votes) })),
    multipleChoice: poll.multiple_choice,
    closed: poll.closed_at !== null,
    closedAt: poll.closed_at ? poll.closed_at.toISOString() : null,
    closedBy: poll.closed_by,
    myVote: (results.my_vote as string[] | null) ?? [],
    totalVoters: results.total_voters,
    createdAt: poll.created_at.toISOString(),
  };
}
