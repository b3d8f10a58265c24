import { readPool } from '../../platform/db/read-router.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { sql, type RawBuilder } from 'kysely';
import { messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import { isMember, roomNotFound } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { parseSeqCursor, parseThreadListCursor, seqCursor, threadListCursor, threadListList, threadRepliesList } from './cursors.js';
import { accountsAudience, threadList, threadPage, unreadReplies, unreadThreadCount } from './sql.js';
import { threadFollowView, threadSummaryView, type FollowState, type ThreadFollowView, type ThreadSummaryView } from './views.js';
import { affected, firstRow, hotRows, rows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import type { ChatTopic } from '../events/topics.js';

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
const lockFollow = (rootId: string, accountId: string, roomId: string, now: Date) =>
  chatDb
    .insertInto('thread_follows')
    .values({ root_id: rootId, account_id: accountId, room_id: roomId, state: 'NONE', last_read_seq: 0, updated_at: now })
    .onConflict((oc) => oc.columns(['root_id', 'account_id']).doUpdateSet((eb) => ({ state: eb.ref('thread_follows.state') })))
    .returning((eb) => [eb.ref('state').$castTo<FollowState>().as('state'), 'last_read_seq']);

/** The caller's row after a change, with its unread count. */
const followState = (rootId: string, accountId: string) =>
  chatDb
    .selectFrom('thread_follows as f')
    .select((eb) => [
      eb.ref('f.state').$castTo<FollowState>().as('state'),
      'f.last_read_seq',
      unreadReplies(eb.ref('f.root_id'), eb.ref('f.last_read_seq'), eb.ref('f.account_id')).$asScalar().as('unread_count'),
    ])
    .where('f.root_id', '=', rootId)
    .where('f.account_id', '=', accountId);

/** The caller's follow row after a change (`set`), with the change's per-user event in the same statement. */
interface FollowChange {
  rootId: string;
  roomId: string;
  accountId: string;
  set: { state: FollowState } | { last_read_seq: number };
  updatedAt: Date;
  topic: ChatTopic;
  /** The payload's fields between accountId and audience (jsonb_build_object arguments), when the topic has any. */
  fields?: RawBuilder<unknown>;
  /** Whether the event is written. */
  event: boolean;
}

const followChange = (c: FollowChange) =>
  outboxInsertFrom(
    chatDb.with('up', (db) =>
      db
        .updateTable('thread_follows')
        .set({ ...c.set, updated_at: c.updatedAt })
        .where('root_id', '=', c.rootId)
        .where('account_id', '=', c.accountId),
    ),
    chatDb
      .selectNoFrom([
        chatTopic(c.topic).as('topic'),
        sql<unknown>`jsonb_build_object('rootId', ${c.rootId}::uuid, 'roomId', ${c.roomId}::uuid, 'accountId', ${c.accountId}::uuid,
          ${c.fields ? sql`${c.fields}, ` : sql``}'audience', ${accountsAudience(sql<string>`${c.accountId}::uuid`)})`.as('payload'),
      ])
      .$if(!c.event, (q) => q.where(sql.lit(false))),
  );

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
    const found = await rows(db, threadList(caller.accountId, roomId, limit + 1, cursor));
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
    const result = await hotRows(
      await readPool(this.deps),
      threadPage(forward, bound !== null).bind({
        root: rootId,
        caller: caller.accountId,
        limit: limit + 1,
        bound: bound ?? undefined,
        room: roomId,
      }),
    );
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
    return this.changeFollow(caller, rootId, async (client, roomId, current) => {
      if (current.state === 'FOLLOWING') return false;
      await affected(
        client,
        followChange({
          rootId,
          roomId,
          accountId: caller.accountId,
          set: { state: 'FOLLOWING' },
          updatedAt: this.deps.clock.now(),
          topic: 'thread.followed',
          fields: sql`'automatic', false`,
          event: true,
        }),
      );
      return true;
    });
  }

  /** Sets UNFOLLOWED (also from no row, so that later replies never make the caller follow); an event only when it followed. */
  async unfollow(caller: Caller, rootId: string): Promise<void> {
    await this.changeFollow(caller, rootId, async (client, roomId, current) => {
      if (current.state === 'UNFOLLOWED') return false;
      await affected(
        client,
        followChange({
          rootId,
          roomId,
          accountId: caller.accountId,
          set: { state: 'UNFOLLOWED' },
          updatedAt: this.deps.clock.now(),
          topic: 'thread.unfollowed',
          event: current.state === 'FOLLOWING',
        }),
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
      await affected(
        client,
        followChange({
          rootId,
          roomId,
          accountId: caller.accountId,
          set: { last_read_seq: seq },
          updatedAt: this.deps.clock.now(),
          topic: 'thread.read',
          fields: sql`'lastReadSeq', ${seq}::bigint`,
          event: true,
        }),
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
    return inTransaction(this.deps.sql, async (client) => {
      const roomId = await this.rootRoom(client, caller, rootId);
      const locked = await firstRow(client, lockFollow(rootId, caller.accountId, roomId, this.deps.clock.now()));
      await change(client, roomId, locked!);
      const row = (await firstRow(client, followState(rootId, caller.accountId)))!;
      return threadFollowView(rootId, roomId, row.state, row.last_read_seq, row.unread_count);
    });
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
    const row = await firstRow(this.deps.sql, unreadThreadCount(caller.accountId));
    return { count: row?.n ?? 0 };
  }
}
