// A poll with its results from one caller's view, read in one statement (one snapshot: the counts, the total and
// the caller's vote always agree with each other).
import type { Queryable } from '../rooms/membership.js';
import type { RoomRole } from '../rooms/views.js';

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

export interface PollRow {
  id: string;
  room_id: string;
  message_id: string;
  creator_id: string;
  question: string;
  multiple_choice: boolean;
  created_at: Date;
  closed_at: Date | null;
  closed_by: string | null;
  /** The caller's role in the poll's room. */
  my_role: RoomRole;
}

/**
 * The poll, only when the caller ($2) is a member of its live room. With a lock, the poll row is locked: votes take
 * `share` (many at once) and a close takes `update`, so no vote commits after the close that refused it.
 */
export function pollRowSql(lock: 'share' | 'update' | null = null): string {
  return `
    select p.id, p.room_id, p.message_id, p.creator_id, p.question, p.multiple_choice, p.created_at, p.closed_at, p.closed_by,
           m.role as my_role
      from polls p
      join rooms r on r.id = p.room_id and r.deleted_at is null
      join room_members m on m.room_id = p.room_id and m.account_id = $2
     where p.id = $1 ${lock ? `for ${lock} of p` : ''}`;
}

interface ResultRow {
  options: PollOptionView[];
  total_voters: number;
  my_vote: string[] | null;
}

/** Counts are a recount of the ballots at read time, never stored counters. */
const resultsSql = `
  select coalesce((select json_agg(json_build_object(
             'id', o.id, 'text', o.text,
             'votes', (select count(*) from poll_ballots b where b.poll_id = o.poll_id and o.id = any(b.option_ids)))
           order by o.position)
           from poll_options o where o.poll_id = $1), '[]'::json) as options,
         (select count(*)::int from poll_ballots b where b.poll_id = $1) as total_voters,
         (select b.option_ids from poll_ballots b where b.poll_id = $1 and b.account_id = $2) as my_vote`;

export async function pollView(db: Queryable, poll: PollRow, callerId: string): Promise<PollView> {
  const { rows } = await db.query<ResultRow>(resultsSql, [poll.id, callerId]);
  const results = rows[0]!;
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
    myVote: results.my_vote ?? [],
    totalVoters: results.total_voters,
    createdAt: poll.created_at.toISOString(),
  };
}
