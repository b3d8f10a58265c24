// The statements of the mentions inbox: its pages and the marks that read mentions.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { messageColumnsIn } from '../base/message-views.js';
import { hiddenBy, hiddenForMe } from '../base/message-queries.js';
import { chatDb } from '../base/tables.js';

/** A mention row of the caller is unread while neither marked nor passed by the room's read mark (`m`: room_members). */
const unread = sql<boolean>`mn.read_at is null and mn.seq > m.last_read_seq`;

/**
 * `limit` of the account's mentions in live rooms it is a member of, newest first, after the keyset `after`, with
 * the message as the account sees it, its room and the read flag; messages the account hid are left out.
 */
export async function mentionInboxRows(
  db: Runner,
  accountId: string,
  page: { unreadOnly: boolean; limit: number; after: { at: string; id: string } | null },
) {
  const { after } = page;
  return rows(
    db,
    chatDb
      .selectFrom('mentions as mn')
      .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'mn.room_id').onRef('m.account_id', '=', 'mn.account_id'))
      .innerJoin('rooms as r', (join) => join.onRef('r.id', '=', 'mn.room_id').on('r.deleted_at', 'is', null))
      .innerJoin('messages as x', 'x.id', 'mn.message_id')
      .select([
        ...messageColumnsIn('x'),
        'x.reply_count',
        hiddenForMe(accountId, 'x'),
        'r.type as room_type',
        'r.name as room_name',
        sql<boolean>`not (${unread})`.as('read'),
        'mn.created_at as mentioned_at',
      ])
      .where('mn.account_id', '=', accountId)
      .$if(after !== null, (q) => q.where(sql<boolean>`(mn.created_at, mn.message_id) < (${after!.at}::timestamptz, ${after!.id}::uuid)`))
      .$if(page.unreadOnly, (q) => q.where(unread))
      .where((eb) => eb.not(eb.exists(hiddenBy(accountId, eb.ref('mn.message_id')))))
      .orderBy('mn.created_at', 'desc')
      .orderBy('mn.message_id', 'desc')
      .limit(page.limit),
  );
}

/**
 * Marks the account's mention of the message read, in a room it is still a member of: undefined when there is no
 * such mention, `marked` false when it was read already.
 */
export async function markMentionRead(client: SqlClient, accountId: string, messageId: string, at: Date) {
  return firstRow(
    client,
    chatDb
      .with('target', (q) =>
        q
          .selectFrom('mentions as mn')
          .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'mn.room_id').onRef('m.account_id', '=', 'mn.account_id'))
          .select(['mn.account_id', 'mn.message_id', 'mn.room_id', 'mn.read_at'])
          .where('mn.account_id', '=', accountId)
          .where('mn.message_id', '=', messageId),
      )
      .with('marked', (q) =>
        q
          .updateTable('mentions as mn')
          .from('target as t')
          .set({ read_at: at })
          .whereRef('mn.account_id', '=', 't.account_id')
          .whereRef('mn.message_id', '=', 't.message_id')
          .where('t.read_at', 'is', null)
          .returning('mn.message_id'),
      )
      .selectFrom('target as t')
      .select((eb) => ['t.room_id', eb.exists(eb.selectFrom('marked').select(sql.lit(1).as('one'))).as('marked')]),
  );
}

/** Marks the account's unread mentions read (of one room, or of all its rooms); the ids of the messages marked. */
export async function markMentionsRead(client: SqlClient, accountId: string, roomId: string | undefined, at: Date): Promise<string[]> {
  const marked = await rows(
    client,
    chatDb
      .updateTable('mentions as mn')
      .from('room_members as m')
      .set({ read_at: at })
      .where('mn.account_id', '=', accountId)
      .where('mn.read_at', 'is', null)
      .$if(roomId !== undefined, (q) => q.where('mn.room_id', '=', roomId!))
      .whereRef('m.room_id', '=', 'mn.room_id')
      .whereRef('m.account_id', '=', 'mn.account_id')
      .whereRef('mn.seq', '>', 'm.last_read_seq')
      .returning('mn.message_id'),
  );
  return marked.map((r) => r.message_id);
}

export const examples: QueryExamples = {
  mentionInboxRows: (db) =>
    mentionInboxRows(db, example.id, { unreadOnly: true, limit: 51, after: { at: example.at.toISOString(), id: example.otherId } }),
  markMentionRead: (db) => markMentionRead(db, example.id, example.otherId, example.at),
  markMentionsRead: (db) => markMentionsRead(db, example.id, example.otherId, example.at),
};
