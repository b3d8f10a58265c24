// A poll with its results from one caller's view, read in one statement (one snapshot: the counts, the total and
// the caller's vote always agree with each other).
import type { Runner } from '../../platform/db/typed.js';
import { pollResults, type PollRow } from './queries.js';

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

/** The poll with its results; counts are a recount of the ballots at read time, never stored counters. */
export async function pollView(db: Runner, poll: PollRow, callerId: string): Promise<PollView> {
  const results = (await pollResults(db, poll.id, callerId))!;
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
