// Polls: created in a room together with the POLL message that announces them, voted on by the room's members
// (a vote replaces the voter's whole previous vote), closed by their creator or an owner/admin of the room.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { emit, roomAudience } from '../events/emit.js';
import { isManager, roomNotFound } from '../base/membership.js';
import { pollErrors } from './errors.js';
import {
  bumpRoomSeq,
  insertPoll,
  lockOpenPollOfMessage,
  markPollClosed,
  pollForCaller,
  pollOptions,
  upsertBallot,
  type PollRow,
} from './queries.js';
import { pollView, type PollView } from './views.js';

export interface CreatePollInput {
  question: string;
  options: string[];
  multipleChoice?: boolean;
}

/** Options must differ once trimmed, ignoring letter case: two identical choices would split one opinion. */
function distinctOptions(options: string[]): string[] {
  const texts = options.map((o) => o.trim());
  const seen = new Map<string, number>();
  const problems: Array<{ index: number; message: string }> = [];
  texts.forEach((text, index) => {
    if (text.length === 0) problems.push({ index, message: 'must contain a character other than white space' });
    const key = text.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) problems.push({ index, message: `repeats body.options[${first}]` });
    else seen.set(key, index);
  });
  if (problems.length > 0) throw pollErrors.atIndexes('body.options', problems);
  return texts;
}

/** What a caller that makes polls of its own kind (a bot's sendPoll) adds to the creation, all in its one commit. */
export interface PollCreation {
  /** The caller's own rows of the poll (a bot's poll settings, its keyboard), written before the poll is seen. */
  alongside?: (client: SqlClient, made: { pollId: string; messageId: string }) => Promise<void>;
  /** Created closed (a bot's is_closed): nobody sees it open, not even for the time of a second write. */
  closed?: boolean;
}

export class PollService {
  constructor(private readonly deps: ChatDeps) {}

  async create(caller: Caller, roomId: string, input: CreatePollInput, creation: PollCreation = {}): Promise<PollView> {
    const question = input.question.trim();
    if (question.length === 0) throw chatErrors.invalid('body.question', 'must contain a character other than white space');
    const options = distinctOptions(input.options);
    const now = this.deps.clock.now();
    const pollId = newId();
    const messageId = newId();
    const optionIds = options.map(() => newId());
    const view = await inTransaction(this.deps.sql, async (client) => {
      const seq = await bumpRoomSeq(client, roomId, caller.accountId, now);
      if (seq === undefined) throw roomNotFound();
      await insertPoll(client, {
        pollId,
        messageId,
        roomId,
        seq,
        creatorId: caller.accountId,
        question,
        multipleChoice: input.multipleChoice ?? false,
        options: options.map((text, i) => ({ id: optionIds[i]!, text })),
        at: now,
      });
      await creation.alongside?.(client, { pollId, messageId });
      const audience = roomAudience(roomId);
      await emit(
        client,
        'message.created',
        { roomId, messageId, senderId: caller.accountId, seq, threadRootId: null, type: 'POLL', pollId },
        audience,
      );
      await emit(
        client,
        'poll.created',
        {
          pollId,
          roomId,
          messageId,
          creatorId: caller.accountId,
          question,
          options: options.map((text, i) => ({ id: optionIds[i]!, text })),
          multipleChoice: input.multipleChoice ?? false,
        },
        audience,
      );
      if (creation.closed) await closePoll(client, await this.load(client, caller, pollId, 'update'), caller.accountId, now);
      return this.viewIn(client, caller, pollId);
    });
    return view;
  }

  async get(caller: Caller, pollId: string): Promise<PollView> {
    const poll = await this.load(this.deps.sql, caller, pollId);
    return pollView(this.deps.sql, poll, caller.accountId);
  }

  /**
   * The chosen options replace the caller's ballot in one upsert, so concurrent votes of one account leave exactly
   * one option set (the last to commit). Every check comes before the write: a refusal changes nothing.
   */
  async vote(caller: Caller, pollId: string, optionIds: string[]): Promise<PollView> {
    return inTransaction(this.deps.sql, async (client) => {
      const poll = await this.load(client, caller, pollId, 'share');
      if (poll.closed_at !== null) throw pollErrors.closed();
      const held = await pollOptions(client, pollId);
      const position = new Map(held.map((r) => [r.id, r.position]));
      const unknown = optionIds.flatMap((id, index) => (position.has(id) ? [] : [{ index, message: 'is not an option of this poll' }]));
      if (unknown.length > 0) throw pollErrors.atIndexes('body.optionIds', unknown);
      if (!poll.multiple_choice && optionIds.length !== 1)
        throw chatErrors.invalid('body.optionIds', 'must hold exactly one option: the poll is single choice');
      const chosen = [...optionIds].sort((a, b) => position.get(a)! - position.get(b)!);
      const changed = await upsertBallot(client, { pollId, accountId: caller.accountId, optionIds: chosen, at: this.deps.clock.now() });
      // Who voted what stays private: the room hears that the results moved, and reads them with getPoll.
      if (changed) await emit(client, 'poll.voted', { pollId, roomId: poll.room_id }, roomAudience(poll.room_id));
      return pollView(client, poll, caller.accountId);
    });
  }

  /** The creator or an owner/admin of the room; closing a closed poll answers it unchanged. */
  async close(caller: Caller, pollId: string): Promise<PollView> {
    return inTransaction(this.deps.sql, async (client) => {
      const poll = await this.load(client, caller, pollId, 'update');
      if (poll.creator_id !== caller.accountId && !isManager(poll.my_role)) throw pollErrors.closeForbidden();
      if (poll.closed_at !== null) return pollView(client, poll, caller.accountId);
      const closed = await closePoll(client, poll, caller.accountId, this.deps.clock.now());
      return pollView(client, closed, caller.accountId);
    });
  }

  private async viewIn(client: SqlClient, caller: Caller, pollId: string): Promise<PollView> {
    return pollView(client, await this.load(client, caller, pollId), caller.accountId);
  }

  private async load(db: Runner, caller: Caller, pollId: string, lock: 'share' | 'update' | null = null): Promise<PollRow> {
    const poll = await pollForCaller(db, pollId, caller.accountId, lock);
    if (!poll) throw pollErrors.notFound();
    return poll;
  }
}

/** Closes a poll whose row the caller holds locked, with its event. */
export async function closePoll(client: SqlClient, poll: PollRow, by: string, at: Date, reason?: 'recalled'): Promise<PollRow> {
  await markPollClosed(client, poll.id, by, at);
  await emit(
    client,
    'poll.closed',
    {
      pollId: poll.id,
      roomId: poll.room_id,
      closedBy: by,
      closedAt: at.toISOString(),
      ...(reason ? { reason } : {}),
    },
    roomAudience(poll.room_id),
  );
  return { ...poll, closed_at: at, closed_by: by };
}

/** Recalling a POLL message closes its poll in the recall's transaction (a poll nobody can see takes no votes). */
export async function closePollOfRecalledMessage(client: SqlClient, messageId: string, by: string, at: Date): Promise<void> {
  const poll = await lockOpenPollOfMessage(client, messageId);
  if (poll) await closePoll(client, poll, by, at, 'recalled');
}
