// The statements of thread follows: the root a follow change is about, the caller's follow row (locked, changed with
// its per-user event in the same statement, read back), and the followers of a root.
import { sql, type RawBuilder } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import type { ChatTopic } from '../events/topics.js';
import { accountsAudience, unreadReplies } from './thread-queries.js';
import type { FollowState } from './views.js';

/** The room of message `rootId`, whether it is a top-level message, and whether `accountId` is a member of the room. */
export async function threadRootOf(db: Runner, accountId: string, rootId: string) {
  return firstRow(
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
              .where('rm.account_id', '=', accountId),
          )
          .$castTo<boolean>()
          .as('member'),
      ])
      .where('m.id', '=', rootId),
  );
}

/** Locks the caller's follow row (made in state NONE when missing) and answers its current state and read mark. */
export async function lockFollow(client: SqlClient, rootId: string, accountId: string, roomId: string, now: Date) {
  const row = await firstRow(
    client,
    chatDb
      .insertInto('thread_follows')
      .values({ root_id: rootId, account_id: accountId, room_id: roomId, state: 'NONE', last_read_seq: 0, updated_at: now })
      .onConflict((oc) => oc.columns(['root_id', 'account_id']).doUpdateSet((eb) => ({ state: eb.ref('thread_follows.state') })))
      .returning((eb) => [eb.ref('state').$castTo<FollowState>().as('state'), 'last_read_seq']),
  );
  return row!;
}

/** The caller's row after a change, with its unread count. */
export async function followState(db: Runner, rootId: string, accountId: string) {
  const row = await firstRow(
    db,
    chatDb
      .selectFrom('thread_follows as f')
      .select((eb) => [
        eb.ref('f.state').$castTo<FollowState>().as('state'),
        'f.last_read_seq',
        unreadReplies(eb.ref('f.root_id'), eb.ref('f.last_read_seq'), eb.ref('f.account_id')).$asScalar().as('unread_count'),
      ])
      .where('f.root_id', '=', rootId)
      .where('f.account_id', '=', accountId),
  );
  return row!;
}

/** The seq of `messageId` when it is the root `rootId` or one of its replies. */
export async function seqInThread(db: Runner, rootId: string, messageId: string): Promise<number | undefined> {
  const row = await firstRow(
    db,
    chatDb
      .selectFrom('messages')
      .select('seq')
      .where('id', '=', messageId)
      .where((eb) => eb.or([eb('id', '=', rootId), eb('thread_root_id', '=', rootId)])),
  );
  return row?.seq;
}

/** The caller's follow row of a root, and the root's room. */
export interface FollowRow {
  rootId: string;
  roomId: string;
  accountId: string;
}

/** The caller's follow row after a change (`set`), with the change's per-user event in the same statement. */
interface FollowChange extends FollowRow {
  at: Date;
  set: { state: FollowState } | { last_read_seq: number };
  topic: ChatTopic;
  /** The payload's fields between accountId and audience (jsonb_build_object arguments), when the topic has any. */
  fields?: RawBuilder<unknown>;
  /** Whether the event is written. */
  event: boolean;
}

async function changeFollow(client: SqlClient, c: FollowChange): Promise<void> {
  await affected(
    client,
    outboxInsertFrom(
      chatDb.with('up', (db) =>
        db
          .updateTable('thread_follows')
          .set({ ...c.set, updated_at: c.at })
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
    ),
  );
}

/** FOLLOWING, with thread.followed (not automatic). */
export async function followThread(client: SqlClient, row: FollowRow, at: Date): Promise<void> {
  await changeFollow(client, {
    ...row,
    at,
    set: { state: 'FOLLOWING' },
    topic: 'thread.followed',
    fields: sql`'automatic', false`,
    event: true,
  });
}

/** UNFOLLOWED, with thread.unfollowed when `event`. */
export async function unfollowThread(client: SqlClient, row: FollowRow, at: Date, event: boolean): Promise<void> {
  await changeFollow(client, { ...row, at, set: { state: 'UNFOLLOWED' }, topic: 'thread.unfollowed', event });
}

/** The read mark at `seq`, with thread.read. */
export async function markThreadRead(client: SqlClient, row: FollowRow, at: Date, seq: number): Promise<void> {
  await changeFollow(client, {
    ...row,
    at,
    set: { last_read_seq: seq },
    topic: 'thread.read',
    fields: sql`'lastReadSeq', ${seq}::bigint`,
    event: true,
  });
}

/** Accounts in state FOLLOWING of the root that are still members of its room, in id order. */
export async function followersOf(db: Runner, rootId: string): Promise<string[]> {
  const following = await rows(
    db,
    chatDb
      .selectFrom('thread_follows as f')
      .innerJoin('room_members as rm', (join) => join.onRef('rm.room_id', '=', 'f.room_id').onRef('rm.account_id', '=', 'f.account_id'))
      .select('f.account_id')
      .where('f.root_id', '=', rootId)
      .where('f.state', '=', 'FOLLOWING')
      .orderBy('f.account_id'),
  );
  return following.map((r) => r.account_id);
}

const exampleRow: FollowRow = { rootId: example.id, roomId: example.otherId, accountId: example.otherId };

export const examples: QueryExamples = {
  threadRootOf: (db) => threadRootOf(db, example.id, example.otherId),
  lockFollow: (db) => lockFollow(db, example.id, example.otherId, example.otherId, example.at),
  followState: (db) => followState(db, example.id, example.otherId),
  seqInThread: (db) => seqInThread(db, example.id, example.otherId),
  followThread: (db) => followThread(db, exampleRow, example.at),
  unfollowThread: (db) => unfollowThread(db, exampleRow, example.at, true),
  markThreadRead: (db) => markThreadRead(db, exampleRow, example.at, 7),
  followersOf: (db) => followersOf(db, example.id),
};
