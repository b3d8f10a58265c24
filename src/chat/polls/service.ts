// Polls: created in a room together with the POLL message that announces them, voted on by the room's members
// (a vote replaces the voter's whole previous vote), closed by their creator or an owner/admin of the room.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { emit, roomAudience } from '../events/emit.js';
import { isManager, roomNotFound } from '../rooms/membership.js';
import { pollErrors } from './errors.js';
import { pollRowSql, pollView, type PollRow, type PollView } from './views.js';

export interface CreatePollInput {
  question: string;
  options: string[];
  multipleChoice?: boolean;
}

/**
 * Takes the room's next sequence number the way a send does (the room row's lock orders writers, so commit order
 * is sequence order), only for a member of a live room.
 */
const bumpSql = `
  update rooms set last_seq = last_seq + 1, last_activity_at = $3
   where id = $1 and deleted_at is null and exists (select 1 from room_members where room_id = $1 and account_id = $2)
  returning last_seq`;

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

export class PollService {
  constructor(private readonly deps: ChatDeps) {}

  async create(caller: Caller, roomId: string, input: CreatePollInput): Promise<PollView> {
    const question = input.question.trim();
    if (question.length === 0) throw chatErrors.invalid('body.question', 'must contain a character other than white space');
    const options = distinctOptions(input.options);
    const now = this.deps.clock.now();
    const pollId = newId();
    const messageId = newId();
    const optionIds = options.map(() => newId());
    const view = await inTransaction(this.deps.sql, async (client) => {
      const bump = await client.query<{ last_seq: number }>(bumpSql, [roomId, caller.accountId, now]);
      const seq = bump.rows[0]?.last_seq;
      if (seq === undefined) throw roomNotFound();
      await client.query(
        `insert into messages (id, room_id, seq, sender_id, type, text, created_at, poll_id) values ($1, $2, $3, $4, 'POLL', $5, $6, $7)`,
        [messageId, roomId, seq, caller.accountId, question, now, pollId],
      );
      await client.query(
        `insert into polls (id, room_id, message_id, creator_id, question, multiple_choice, created_at) values ($1, $2, $3, $4, $5, $6, $7)`,
        [pollId, roomId, messageId, caller.accountId, question, input.multipleChoice ?? false, now],
      );
      await client.query(
        `insert into poll_options (id, poll_id, position, text)
         select id, $1, ord - 1, text from unnest($2::uuid[], $3::text[]) with ordinality as o (id, text, ord)`,
        [pollId, optionIds, options],
      );
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
      return this.viewIn(client, caller, pollId);
    });
    this.deps.queues.requestOutboxDrain();
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
    const result = await inTransaction(this.deps.sql, async (client) => {
      const poll = await this.load(client, caller, pollId, 'share');
      if (poll.closed_at !== null) throw pollErrors.closed();
      const { rows } = await client.query<{ id: string; position: number }>('select id, position from poll_options where poll_id = $1', [
        pollId,
      ]);
      const position = new Map(rows.map((r) => [r.id, r.position]));
      const unknown = optionIds.flatMap((id, index) => (position.has(id) ? [] : [{ index, message: 'is not an option of this poll' }]));
      if (unknown.length > 0) throw pollErrors.atIndexes('body.optionIds', unknown);
      if (!poll.multiple_choice && optionIds.length !== 1)
        throw chatErrors.invalid('body.optionIds', 'must hold exactly one option: the poll is single choice');
      const chosen = [...optionIds].sort((a, b) => position.get(a)! - position.get(b)!);
      const changed = await client.query(
        `insert into poll_ballots (poll_id, account_id, option_ids, voted_at) values ($1, $2, $3::uuid[], $4)
         on conflict (poll_id, account_id) do update set option_ids = excluded.option_ids, voted_at = excluded.voted_at
          where poll_ballots.option_ids <> excluded.option_ids`,
        [pollId, caller.accountId, chosen, this.deps.clock.now()],
      );
      // Who voted what stays private: the room hears that the results moved, and reads them with getPoll.
      if (changed.rowCount) await emit(client, 'poll.voted', { pollId, roomId: poll.room_id }, roomAudience(poll.room_id));
      return { view: await pollView(client, poll, caller.accountId), changed: (changed.rowCount ?? 0) > 0 };
    });
    if (result.changed) this.deps.queues.requestOutboxDrain();
    return result.view;
  }

  /** The creator or an owner/admin of the room; closing a closed poll answers it unchanged. */
  async close(caller: Caller, pollId: string): Promise<PollView> {
    const result = await inTransaction(this.deps.sql, async (client) => {
      const poll = await this.load(client, caller, pollId, 'update');
      if (poll.creator_id !== caller.accountId && !isManager(poll.my_role)) throw pollErrors.closeForbidden();
      if (poll.closed_at !== null) return { view: await pollView(client, poll, caller.accountId), changed: false };
      const closed = await closePoll(client, poll, caller.accountId, this.deps.clock.now());
      return { view: await pollView(client, closed, caller.accountId), changed: true };
    });
    if (result.changed) this.deps.queues.requestOutboxDrain();
    return result.view;
  }

  private async viewIn(client: SqlClient, caller: Caller, pollId: string): Promise<PollView> {
    return pollView(client, await this.load(client, caller, pollId), caller.accountId);
  }

  private async load(
    db: SqlClient | ChatDeps['sql'],
    caller: Caller,
    pollId: string,
    lock: 'share' | 'update' | null = null,
  ): Promise<PollRow> {
    const { rows } = await db.query<PollRow>(pollRowSql(lock), [pollId, caller.accountId]);
    if (!rows[0]) throw pollErrors.notFound();
    return rows[0];
  }
}

/** Closes a poll whose row the caller holds locked, with its event. */
export async function closePoll(client: SqlClient, poll: PollRow, by: string, at: Date, reason?: 'recalled'): Promise<PollRow> {
  await client.query('update polls set closed_at = $2, closed_by = $3 where id = $1', [poll.id, at, by]);
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
  const { rows } = await client.query<PollRow>(
    `select id, room_id, message_id, creator_id, question, multiple_choice, created_at, closed_at, closed_by, 'MEMBER' as my_role
       from polls where message_id = $1 and closed_at is null for update`,
    [messageId],
  );
  if (rows[0]) await closePoll(client, rows[0], by, at, 'recalled');
}
