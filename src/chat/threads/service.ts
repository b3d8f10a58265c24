import { readPool } from '../../platform/db/read-router.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { messageView, type MessageRow, type MessageView } from '../messages/views.js';
import { isMember, roomNotFound } from '../rooms/membership.js';
import type { Page } from '../rooms/service.js';
import { parseSeqCursor, parseThreadListCursor, seqCursor, threadListCursor, threadListList, threadRepliesList } from './cursors.js';
import { accountsAudienceSql, checkedThreadPageSql, threadListSql, unreadRepliesSql, unreadThreadCountSql } from './sql.js';
import {
  threadFollowView,
  threadSummaryView,
  type FollowState,
  type ThreadFactsRow,
  type ThreadFollowView,
  type ThreadSummaryView,
} from './views.js';
import { prepared } from '../../platform/db/prepared.js';
import { firstRow, rows } from '../../platform/db/typed.js';
import { chatDb } from '../tables.js';
import { chatTopicSql, outboxInsertSql } from '../events/emit.js';

export interface ThreadListQuery {
  limit?: number;
  cursor?: string;
}

export interface ThreadPageQuery {
  before?: string;
  after?: string;
  limit?: number;
}

const messageNotFound = () => chatErrors.notFound('Message', 'message_not_found');

/** Locks the caller's follow row (made in state NONE when missing) and answers its current state and read mark. */
const lockFollowSql = `
  insert into thread_follows (root_id, account_id, room_id, state, last_read_seq, updated_at)
  values ($1, $2, $3, 'NONE', 0, $4)
  on conflict (root_id, account_id) do update set state = thread_follows.state
  returning state, last_read_seq`;

/** The caller's row after a change, with its unread count. */
const followStateSql = `
  select f.state, f.last_read_seq, (${unreadRepliesSql('f.root_id', 'f.last_read_seq', 'f.account_id')}) as unread_count
    from thread_follows f where f.root_id = $1 and f.account_id = $2`;

export class ThreadService {
  constructor(private readonly deps: ChatDeps) {}

  private async requireMember(roomId: string, accountId: string): Promise<void> {
    if (!(await isMember(this.deps.sql, roomId, accountId))) throw roomNotFound();
  }

  /**
   * The room of a thread root for a caller who is a member of it. An unknown id answers like a root in a room the
   * caller is not in (404 room_not_found), so ids are not confirmed to outsiders; a member naming a reply gets
   * 404 message_not_found (a reply is not a thread).
   */
  private async rootRoom(db: SqlPool | SqlClient, caller: Caller, rootId: string): Promise<string> {
    const row = await firstRow(
      db,
      chatDb
        .selectFrom('messages as m')
        .select((eb) => [
          'm.room_id',
          eb('m.thread_root_id', 'is', null).$castTo<boolean>().as('is_root'),
          eb
            .exists(
              eb
                .selectFrom('room_members as rm')
                .select('rm.account_id')
                .whereRef('rm.room_id', '=', 'm.room_id')
                .where('rm.account_id', '=', caller.accountId),
            )
            .$castTo<boolean>()
            .as('member'),
        ])
        .where('m.id', '=', rootId),
    );
    if (!row || !row.member) throw roomNotFound();
    if (!row.is_root) throw messageNotFound();
    return row.room_id;
  }

  /** Active threads of a room, newest reply first; keyset on (last_reply_at, id) over messages_active_threads. */
  async list(caller: Caller, roomId: string, query: ThreadListQuery): Promise<Page<ThreadSummaryView>> {
    const limit = query.limit ?? 20;
    const list = threadListList(roomId);
    const cursor = query.cursor !== undefined ? parseThreadListCursor(query.cursor, list) : null;
    const db = await readPool(this.deps);
    if (!(await isMember(db, roomId, caller.accountId))) throw roomNotFound();
    const params: unknown[] = [caller.accountId, roomId, limit + 1];
    if (cursor) params.push(cursor.at, cursor.id);
    const { rows } = await db.query<ThreadFactsRow>(threadListSql(cursor !== null), params);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(threadSummaryView),
      hasMore,
      nextCursor: hasMore && last ? threadListCursor(last.last_reply_at, last.id, list) : null,
    };
  }

  /**
   * Replies of a root, scrolled like listMessages: one range scan of messages_thread (thread_root_id, seq) per
   * page whatever the room size; hasMore and nextCursor come from the raw rows, then replies the caller hid are
   * left out.
   */
  async page(caller: Caller, roomId: string, rootId: string, query: ThreadPageQuery): Promise<Page<MessageView>> {
    if (query.before !== undefined && query.after !== undefined) {
      throw chatErrors.invalid('query.after', 'cannot be combined with query.before');
    }
    const limit = query.limit ?? 50;
    const forward = query.after !== undefined;
    const list = threadRepliesList(rootId);
    const bound =
      query.before !== undefined
        ? parseSeqCursor(query.before, 'query.before', list)
        : forward
          ? parseSeqCursor(query.after!, 'query.after', list)
          : null;
    const params: unknown[] = [rootId, caller.accountId, limit + 1];
    if (bound !== null) params.push(bound);
    params.push(roomId);
    const result = await (
      await readPool(this.deps)
    ).query<{ member: boolean; is_root: boolean | null } & (MessageRow | { id: null })>(
      prepared(checkedThreadPageSql(forward, bound !== null), params),
    );
    if (!result.rows[0]?.member) throw roomNotFound();
    if (result.rows[0].is_root !== true) throw messageNotFound();
    const rows = result.rows.filter((r): r is { member: boolean; is_root: boolean | null } & MessageRow => r.id !== null);
    // The join hands the rows over in the scan's order; sorting keeps that a fact rather than an assumption.
    rows.sort(forward ? (a, b) => a.seq - b.seq : (a, b) => b.seq - a.seq);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const chronological = forward ? page : page.reverse();
    return {
      items: chronological.filter((r) => !r.hidden_for_me).map(messageView),
      hasMore,
      nextCursor: hasMore && last ? seqCursor(last.seq, list) : null,
    };
  }

  async follow(caller: Caller, rootId: string): Promise<ThreadFollowView> {
    return this.changeFollow(caller, rootId, async (client, roomId, current) => {
      if (current.state === 'FOLLOWING') return false;
      await client.query(
        `with up as (
           update thread_follows set state = 'FOLLOWING', updated_at = $3 where root_id = $1 and account_id = $2
         )
         ${outboxInsertSql} values (${chatTopicSql('thread.followed')}, jsonb_build_object(
           'rootId', $1::uuid, 'roomId', $4::uuid, 'accountId', $2::uuid, 'automatic', false, 'audience', ${accountsAudienceSql('$2::uuid')}))`,
        [rootId, caller.accountId, this.deps.clock.now(), roomId],
      );
      return true;
    });
  }

  /** Sets UNFOLLOWED (also from no row, so that later replies never make the caller follow); an event only when it followed. */
  async unfollow(caller: Caller, rootId: string): Promise<void> {
    await this.changeFollow(caller, rootId, async (client, roomId, current) => {
      if (current.state === 'UNFOLLOWED') return false;
      await client.query(
        `with up as (
           update thread_follows set state = 'UNFOLLOWED', updated_at = $3 where root_id = $1 and account_id = $2
         )
         ${outboxInsertSql} select ${chatTopicSql('thread.unfollowed')}, jsonb_build_object(
           'rootId', $1::uuid, 'roomId', $4::uuid, 'accountId', $2::uuid, 'audience', ${accountsAudienceSql('$2::uuid')})
          where $5::boolean`,
        [rootId, caller.accountId, this.deps.clock.now(), roomId, current.state === 'FOLLOWING'],
      );
      return current.state === 'FOLLOWING';
    });
  }

  /**
   * Moves the caller's read mark up to a reply of the thread (the root itself means no reply read); it never moves
   * backwards and leaves the follow state alone.
   */
  async markRead(caller: Caller, rootId: string, messageId: string): Promise<ThreadFollowView> {
    return this.changeFollow(caller, rootId, async (client, roomId, current) => {
      const reply = await firstRow(
        client,
        chatDb
          .selectFrom('messages')
          .select('seq')
          .where('id', '=', messageId)
          .where((eb) => eb.or([eb('id', '=', rootId), eb('thread_root_id', '=', rootId)])),
      );
      const seq = reply?.seq;
      if (seq === undefined) throw messageNotFound();
      if (seq <= current.last_read_seq) return false;
      await client.query(
        `with up as (
           update thread_follows set last_read_seq = $3, updated_at = $4 where root_id = $1 and account_id = $2
         )
         ${outboxInsertSql} values (${chatTopicSql('thread.read')}, jsonb_build_object(
           'rootId', $1::uuid, 'roomId', $5::uuid, 'accountId', $2::uuid, 'lastReadSeq', $3::bigint,
           'audience', ${accountsAudienceSql('$2::uuid')}))`,
        [rootId, caller.accountId, seq, this.deps.clock.now(), roomId],
      );
      return true;
    });
  }

  /**
   * One transaction per follow change: the root's room is checked, the caller's row is locked (so concurrent
   * changes of the same row apply one after the other and each sees the state the other left), the change and its
   * event are written, and the state afterwards is answered.
   */
  private async changeFollow(
    caller: Caller,
    rootId: string,
    change: (client: SqlClient, roomId: string, current: { state: FollowState; last_read_seq: number }) => Promise<boolean>,
  ): Promise<ThreadFollowView> {
    let changed = false;
    const view = await inTransaction(this.deps.sql, async (client) => {
      const roomId = await this.rootRoom(client, caller, rootId);
      const locked = await client.query<{ state: FollowState; last_read_seq: number }>(lockFollowSql, [
        rootId,
        caller.accountId,
        roomId,
        this.deps.clock.now(),
      ]);
      changed = await change(client, roomId, locked.rows[0]!);
      const { rows } = await client.query<{ state: FollowState; last_read_seq: number; unread_count: number }>(followStateSql, [
        rootId,
        caller.accountId,
      ]);
      const row = rows[0]!;
      return threadFollowView(rootId, roomId, row.state, row.last_read_seq, row.unread_count);
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return view;
  }

  /** Accounts in state FOLLOWING that are still members of the root's room. */
  async followers(caller: Caller, rootId: string): Promise<{ rootId: string; accountIds: string[] }> {
    await this.rootRoom(this.deps.sql, caller, rootId);
    const following = await rows(
      this.deps.sql,
      chatDb
        .selectFrom('thread_follows as f')
        .innerJoin('room_members as rm', (join) => join.onRef('rm.room_id', '=', 'f.room_id').onRef('rm.account_id', '=', 'f.account_id'))
        .select('f.account_id')
        .where('f.root_id', '=', rootId)
        .where('f.state', '=', 'FOLLOWING')
        .orderBy('f.account_id'),
    );
    return { rootId, accountIds: following.map((r) => r.account_id) };
  }

  /** Threads the caller follows, in rooms it is still a member of, with at least one unread reply (decision 5). */
  async unreadCount(caller: Caller): Promise<{ count: number }> {
    const { rows } = await this.deps.sql.query<{ n: number }>(unreadThreadCountSql, [caller.accountId]);
    return { count: rows[0]?.n ?? 0 };
  }
}
