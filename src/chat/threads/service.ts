import { readPool } from '../../platform/db/read-router.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import { isMember, roomNotFound } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { parseSeqCursor, parseThreadListCursor, seqCursor, threadListCursor, threadListList, threadRepliesList } from './cursors.js';
import { threadList, threadPage, unreadThreadCount } from './thread-queries.js';
import {
  followersOf,
  followState,
  followThread,
  lockFollow,
  markThreadRead,
  seqInThread,
  threadRootOf,
  unfollowThread,
  type FollowRow,
} from './follow-queries.js';
import { threadFollowView, threadSummaryView, type FollowState, type ThreadFollowView, type ThreadSummaryView } from './views.js';

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
    const row = await threadRootOf(db, caller.accountId, rootId);
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
    const found = await threadList(db, caller.accountId, roomId, limit + 1, cursor);
    const hasMore = found.length > limit;
    const page = found.slice(0, limit);
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
    const result = await threadPage(await readPool(this.deps), forward, {
      root: rootId,
      caller: caller.accountId,
      limit: limit + 1,
      bound: bound ?? undefined,
      room: roomId,
    });
    if (!result[0]?.member) throw roomNotFound();
    if (result[0].is_root !== true) throw messageNotFound();
    const replies = result.filter((r) => r.id !== null).map((r) => r as unknown as MessageRow); // a left-joined page row: its columns are there when id is
    // The join hands the rows over in the scan's order; sorting keeps that a fact rather than an assumption.
    replies.sort(forward ? (a, b) => a.seq - b.seq : (a, b) => b.seq - a.seq);
    const hasMore = replies.length > limit;
    const page = replies.slice(0, limit);
    const last = page[page.length - 1];
    const chronological = forward ? page : page.reverse();
    return {
      items: chronological.filter((r) => !r.hidden_for_me).map(messageView),
      hasMore,
      nextCursor: hasMore && last ? seqCursor(last.seq, list) : null,
    };
  }

  async follow(caller: Caller, rootId: string): Promise<ThreadFollowView> {
    return this.changeFollow(caller, rootId, async (client, row, current) => {
      if (current.state === 'FOLLOWING') return;
      await followThread(client, row, this.deps.clock.now());
    });
  }

  /** Sets UNFOLLOWED (also from no row, so that later replies never make the caller follow); an event only when it followed. */
  async unfollow(caller: Caller, rootId: string): Promise<void> {
    await this.changeFollow(caller, rootId, async (client, row, current) => {
      if (current.state === 'UNFOLLOWED') return;
      await unfollowThread(client, row, this.deps.clock.now(), current.state === 'FOLLOWING');
    });
  }

  /**
   * Moves the caller's read mark up to a reply of the thread (the root itself means no reply read); it never moves
   * backwards and leaves the follow state alone.
   */
  async markRead(caller: Caller, rootId: string, messageId: string): Promise<ThreadFollowView> {
    return this.changeFollow(caller, rootId, async (client, row, current) => {
      const seq = await seqInThread(client, rootId, messageId);
      if (seq === undefined) throw messageNotFound();
      if (seq <= current.last_read_seq) return;
      await markThreadRead(client, row, this.deps.clock.now(), seq);
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
    change: (client: SqlClient, row: FollowRow, current: { state: FollowState; last_read_seq: number }) => Promise<void>,
  ): Promise<ThreadFollowView> {
    return inTransaction(this.deps.sql, async (client) => {
      const roomId = await this.rootRoom(client, caller, rootId);
      const locked = await lockFollow(client, rootId, caller.accountId, roomId, this.deps.clock.now());
      await change(client, { rootId, roomId, accountId: caller.accountId }, locked);
      const row = await followState(client, rootId, caller.accountId);
      return threadFollowView(rootId, roomId, row.state, row.last_read_seq, row.unread_count);
    });
  }

  /** Accounts in state FOLLOWING that are still members of the root's room. */
  async followers(caller: Caller, rootId: string): Promise<{ rootId: string; accountIds: string[] }> {
    await this.rootRoom(this.deps.sql, caller, rootId);
    return { rootId, accountIds: await followersOf(this.deps.sql, rootId) };
  }

  /** Threads the caller follows, in rooms it is still a member of, with at least one unread reply (decision 5). */
  async unreadCount(caller: Caller): Promise<{ count: number }> {
    return { count: await unreadThreadCount(this.deps.sql, caller.accountId) };
  }
}
