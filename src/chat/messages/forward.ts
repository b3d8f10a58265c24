// Forwarding: copies of messages of a room the caller can read, sent into the target room by the caller. A copy
// carries the original's files: members of the target room may then download them.
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { roleIn, roomNotFound } from '../base/membership.js';
import { messageErrors } from './access.js';
import { sql } from 'kysely';
import { firstRow, rows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { asMessageRow, messageColumnNames, messageView, type MessageView } from '../base/message-views.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';

export interface ForwardInput {
  fromRoomId: string;
  messageIds: string[];
}

/**
 * The copies, numbered in the order given from `firstSeq`, with one message.created event each (in sequence order).
 */
function copyStatement(roomId: string, firstSeq: number, senderId: string, now: Date, fromRoomId: string, sourceIds: string[]) {
  const newIds = sourceIds.map(() => newId());
  return chatDb
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
              sql<{ id: string; source_id: string; ord: number }>`unnest(${newIds}::uuid[], ${sourceIds}::uuid[]) with ordinality`.as<'n'>(
                sql`n (id, source_id, ord)`,
              ),
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
    .orderBy('seq');
}

export class ForwardService {
  constructor(private readonly deps: ChatDeps) {}

  /** All or nothing: a source room the caller cannot read, or any id that cannot be forwarded, copies nothing. */
  async forward(caller: Caller, roomId: string, input: ForwardInput): Promise<MessageView[]> {
    // uuids arrive lower-cased (the request pipeline's one uuid rule), so the schema's uniqueItems sees repeats.
    const { fromRoomId, messageIds: ids } = input;
    const now = this.deps.clock.now();
    const copied = await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      try {
        await roleIn(client, fromRoomId, caller.accountId);
      } catch {
        throw messageErrors.sourceRoomNotFound();
      }
      // The target room row is locked before the source messages, the order of every send and recall.
      const bump = await firstRow(
        client,
        chatDb
          .updateTable('rooms')
          .set((eb) => ({ last_seq: eb('last_seq', '+', ids.length), last_activity_at: now }))
          .where('id', '=', roomId)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('room_members')
                .select(sql.lit(1).as('one'))
                .where('room_members.room_id', '=', roomId)
                .where('room_members.account_id', '=', caller.accountId),
            ),
          )
          .returning('last_seq'),
      );
      if (!bump) throw roomNotFound();
      // key share: a recall of a source message waits until the copies are committed, or wins and is seen here.
      const sources = await rows(
        client,
        chatDb
          .selectFrom('messages')
          .select(['id', sql<boolean>`recalled_at is not null`.as('recalled')])
          .where('room_id', '=', fromRoomId)
          .where(sql<boolean>`id = any(${ids}::uuid[])`)
          .forKeyShare(),
      );
      const found = new Map(sources.map((r) => [r.id, r.recalled]));
      const missing = ids.flatMap((id, i) => (found.has(id) ? [] : [i]));
      if (missing.length > 0) throw messageErrors.forwardNotFound(missing);
      const recalled = ids.flatMap((id, i) => (found.get(id) ? [i] : []));
      if (recalled.length > 0) throw messageErrors.forwardRecalled(recalled);
      const firstSeq = bump.last_seq - ids.length + 1;
      const copies = await rows(client, copyStatement(roomId, firstSeq, caller.accountId, now, fromRoomId, ids));
      if (copies.length !== ids.length) throw new Error('forward copied fewer messages than it checked');
      return copies.map(asMessageRow);
    });
    return copied.map(messageView);
  }
}
