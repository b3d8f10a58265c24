// The statements of room pins, personal pins and the room's snap-to-top banner.
import type { InferResult } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import { hiddenForMe, messageSelection } from '../threads/message-selection.js';

/**
 * The room's pins merged with the caller's personal ones into one entry per message: a room pin gives the entry
 * its scope, time and author; `personal` says whether the caller also pinned it.
 */
function pinnedQuery(roomId: string, accountId: string) {
  return chatDb
    .with('r', (db) => db.selectFrom('room_pins').select(['message_id', 'pinned_by', 'pinned_at']).where('room_id', '=', roomId))
    .with('p', (db) =>
      db.selectFrom('personal_pins').select(['message_id', 'pinned_at']).where('account_id', '=', accountId).where('room_id', '=', roomId),
    )
    .with('e', (db) =>
      db
        .selectFrom('r')
        .fullJoin('p', 'p.message_id', 'r.message_id')
        .select((eb) => [
          eb.fn.coalesce('r.message_id', 'p.message_id').$castTo<string>().as('message_id'),
          eb('r.message_id', 'is not', null).$castTo<boolean>().as('room_scope'),
          eb('p.message_id', 'is not', null).$castTo<boolean>().as('personal'),
          eb.fn.coalesce('r.pinned_at', 'p.pinned_at').$castTo<Date>().as('entry_pinned_at'),
          'r.pinned_by',
        ]),
    )
    .selectFrom('e')
    .innerJoin('messages as m', 'm.id', 'e.message_id')
    .select((eb) => [
      ...messageSelection(eb),
      'm.reply_count',
      hiddenForMe(eb, accountId),
      'e.room_scope',
      'e.personal',
      'e.entry_pinned_at',
      'e.pinned_by',
    ]);
}

export type PinnedRow = InferResult<ReturnType<typeof pinnedQuery>>[number];

/** The caller's pin entries of the room, newest first. */
export async function pinnedEntries(db: Runner, roomId: string, accountId: string): Promise<PinnedRow[]> {
  return rows(db, pinnedQuery(roomId, accountId).orderBy('e.entry_pinned_at', 'desc').orderBy('e.message_id', 'desc'));
}

/** The caller's pin entry of the message. */
export async function pinnedEntry(db: Runner, roomId: string, accountId: string, messageId: string): Promise<PinnedRow | undefined> {
  return firstRow(db, pinnedQuery(roomId, accountId).where('e.message_id', '=', messageId));
}

/** True when the message was not pinned for the room yet. */
export async function addRoomPin(client: SqlClient, pin: { roomId: string; messageId: string; by: string; at: Date }): Promise<boolean> {
  const added = await affected(
    client,
    chatDb
      .insertInto('room_pins')
      .values({ room_id: pin.roomId, message_id: pin.messageId, pinned_by: pin.by, pinned_at: pin.at })
      .onConflict((oc) => oc.columns(['room_id', 'message_id']).doNothing()),
  );
  return added === 1;
}

export async function addPersonalPin(
  client: SqlClient,
  pin: { accountId: string; roomId: string; messageId: string; at: Date },
): Promise<void> {
  await affected(
    client,
    chatDb
      .insertInto('personal_pins')
      .values({ account_id: pin.accountId, message_id: pin.messageId, room_id: pin.roomId, pinned_at: pin.at })
      .onConflict((oc) => oc.columns(['account_id', 'message_id']).doNothing()),
  );
}

export async function removePersonalPin(client: SqlClient, accountId: string, messageId: string): Promise<void> {
  await affected(client, chatDb.deleteFrom('personal_pins').where('account_id', '=', accountId).where('message_id', '=', messageId));
}

/** True when the message was pinned for the room. */
export async function removeRoomPin(client: SqlClient, roomId: string, messageId: string): Promise<boolean> {
  return (await affected(client, chatDb.deleteFrom('room_pins').where('room_id', '=', roomId).where('message_id', '=', messageId))) > 0;
}

/** The room's banner, with the room row locked (before the message, as a send and a recall do). */
export async function lockedSnap(client: SqlClient, roomId: string) {
  return firstRow(
    client,
    chatDb.selectFrom('rooms').select(['snap_message_id', 'snapped_by', 'snapped_at']).where('id', '=', roomId).forNoKeyUpdate(),
  );
}

/** The message of the room's banner, with the room row locked. */
export async function lockedSnapMessageId(client: SqlClient, roomId: string): Promise<string | null | undefined> {
  return (await firstRow(client, chatDb.selectFrom('rooms').select('snap_message_id').where('id', '=', roomId).forNoKeyUpdate()))
    ?.snap_message_id;
}

export async function setSnap(client: SqlClient, snap: { roomId: string; messageId: string; by: string; at: Date }): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('rooms')
      .set({ snap_message_id: snap.messageId, snapped_by: snap.by, snapped_at: snap.at })
      .where('id', '=', snap.roomId),
  );
}

export async function clearSnap(client: SqlClient, roomId: string): Promise<void> {
  await affected(
    client,
    chatDb.updateTable('rooms').set({ snap_message_id: null, snapped_by: null, snapped_at: null }).where('id', '=', roomId),
  );
}

/** The message of the room's banner as the caller sees it. */
export async function snapMessage(db: Runner, roomId: string, accountId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('rooms as r')
      .innerJoin('messages as m', 'm.id', 'r.snap_message_id')
      .select((eb) => [...messageSelection(eb), 'm.reply_count', hiddenForMe(eb, accountId)])
      .where('r.id', '=', roomId),
  );
}

const pin = { roomId: example.id, messageId: example.otherId, at: example.at };

export const examples: QueryExamples = {
  pinnedEntries: (db) => pinnedEntries(db, example.id, example.otherId),
  pinnedEntry: (db) => pinnedEntry(db, example.id, example.otherId, example.id),
  addRoomPin: (db) => addRoomPin(db, { ...pin, by: example.id }),
  addPersonalPin: (db) => addPersonalPin(db, { ...pin, accountId: example.id }),
  removePersonalPin: (db) => removePersonalPin(db, example.id, example.otherId),
  removeRoomPin: (db) => removeRoomPin(db, example.id, example.otherId),
  lockedSnap: (db) => lockedSnap(db, example.id),
  lockedSnapMessageId: (db) => lockedSnapMessageId(db, example.id),
  setSnap: (db) => setSnap(db, { ...pin, by: example.id }),
  clearSnap: (db) => clearSnap(db, example.id),
  snapMessage: (db) => snapMessage(db, example.id, example.otherId),
};
