// The statements of a forward: the target room's sequence bump, the source messages (locked), and the copies with
// their events.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { asMessageRow, messageColumnNames } from '../base/message-views.js';
import { chatDb } from '../base/tables.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';

/** Moves the room's sequence on by `count` for a member sender; the new last seq, undefined for a non-member. */
export async function bumpForForward(
  client: SqlClient,
  roomId: string,
  senderId: string,
  count: number,
  at: Date,
): Promise<number | undefined> {
  const bump = await firstRow(
    client,
    chatDb
      .updateTable('rooms')
      .set((eb) => ({ last_seq: eb('last_seq', '+', count), last_activity_at: at }))
      .where('id', '=', roomId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('room_members')
            .select(sql.lit(1).as('one'))
            .where('room_members.room_id', '=', roomId)
            .where('room_members.account_id', '=', senderId),
        ),
      )
      .returning('last_seq'),
  );
  return bump?.last_seq;
}

/**
 * The messages among `ids` of the source room, whether each is recalled. key share: a recall of a source message
 * waits until the copies are committed, or wins and is seen here.
 */
export async function forwardSources(client: SqlClient, fromRoomId: string, ids: string[]) {
  return rows(
    client,
    chatDb
      .selectFrom('messages')
      .select(['id', sql<boolean>`recalled_at is not null`.as('recalled')])
      .where('room_id', '=', fromRoomId)
      .where(sql<boolean>`id = any(${ids}::uuid[])`)
      .forKeyShare(),
  );
}

/**
 * The copies, numbered in the order given from `firstSeq`, with one message.created event each (in sequence order).
 */
export async function copyMessages(
  client: SqlClient,
  copy: { roomId: string; firstSeq: number; senderId: string; at: Date; fromRoomId: string; sourceIds: string[]; newIds: string[] },
) {
  const { roomId, firstSeq, senderId, at: now, fromRoomId, sourceIds, newIds } = copy;
  const copies = await rows(
    client,
    chatDb
      .with('copies', (q) =>
        q
          .insertInto('messages')
          .columns([
            'id',
            'room_id',
            'seq',
            'sender_id',
            'type',
            'text',
            'created_at',
            'forwarded_from_room_id',
            'forwarded_from_message_id',
            'attachments',
            'formatting',
          ])
          .expression((eb) =>
            eb
              .selectFrom(
                sql<{
                  id: string;
                  source_id: string;
                  ord: number;
                }>`unnest(${newIds}::uuid[], ${sourceIds}::uuid[]) with ordinality`.as<'n'>(sql`n (id, source_id, ord)`),
              )
              .innerJoin('messages as s', (join) => join.onRef('s.id', '=', 'n.source_id').on('s.room_id', '=', fromRoomId))
              .select([
                'n.id',
                sql<string>`${roomId}`.as('room_id'),
                sql<number>`${firstSeq} + n.ord - 1`.as('seq'),
                sql<string>`${senderId}`.as('sender_id'),
                // a forwarded poll is its question as text: votes belong to the poll's own room
                sql<string>`case when s.type = 'POLL' then 'TEXT' else s.type end`.as('type'),
                's.text',
                sql<Date>`${now}`.as('created_at'),
                's.room_id as forwarded_from_room_id',
                's.id as forwarded_from_message_id',
                's.attachments',
                's.formatting',
              ]),
          )
          .returning(messageColumnNames),
      )
      .with('events', (q) =>
        outboxInsertFrom(
          q,
          q
            .selectFrom('copies')
            .select([
              chatTopic('message.created').as('topic'),
              sql<unknown>`jsonb_build_object(
             'audience', jsonb_build_object('kind', 'room', 'roomId', room_id),
             'roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq,
             'forwardedFrom', jsonb_build_object('roomId', forwarded_from_room_id, 'messageId', forwarded_from_message_id))`.as('payload'),
            ])
            .orderBy('seq'),
        ),
      )
      .selectFrom('copies')
      .selectAll()
      .orderBy('seq'),
  );
  return copies.map(asMessageRow);
}

export const examples: QueryExamples = {
  bumpForForward: (db) => bumpForForward(db, example.id, example.otherId, 2, example.at),
  forwardSources: (db) => forwardSources(db, example.otherId, [example.id]),
  copyMessages: (db) =>
    copyMessages(db, {
      roomId: example.id,
      firstSeq: 7,
      senderId: example.otherId,
      at: example.at,
      fromRoomId: example.otherId,
      sourceIds: [example.id],
      newIds: [example.otherId],
    }),
};
