// The statements of personal labels and of the caller's labels on a room.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, lockKey, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

const labelSelect = chatDb
  .selectFrom('labels as l')
  .select(['l.id', 'l.owner_id', 'l.name', 'l.color', 'l.created_at', 'l.updated_at'])
  .select((eb) =>
    eb
      .selectFrom('room_labels as rl')
      .whereRef('rl.label_id', '=', 'l.id')
      .select(sql<number>`count(*)::int`.as('n'))
      .$asScalar()
      .as('room_count'),
  );

/** A label with the number of rooms it is on. */
export type LabelRow = NonNullable<Awaited<ReturnType<typeof labelSelect.executeTakeFirst>>>;

/** The owner's labels by name (letter case ignored). */
export async function labelsOf(db: Runner, ownerId: string): Promise<LabelRow[]> {
  return rows(
    db,
    labelSelect
      .where('l.owner_id', '=', ownerId)
      .orderBy(sql`lower(l.name)`)
      .orderBy('l.id'),
  );
}

/** The owner's label, locked for update when asked; undefined when the owner has no label of that id. */
export async function labelOf(db: Runner, ownerId: string, labelId: string, lock = false): Promise<LabelRow | undefined> {
  const one = labelSelect.where('l.id', '=', labelId).where('l.owner_id', '=', ownerId);
  return firstRow(db, lock ? one.forUpdate('l') : one);
}

/** One create at a time per account, so a count of its labels cannot be passed by a concurrent create. */
export async function lockLabelCreation(client: SqlClient, ownerId: string): Promise<void> {
  await lockKey(client, `labels:${ownerId}`);
}

export async function countLabels(client: SqlClient, ownerId: string): Promise<number> {
  const held = await firstRow(
    client,
    chatDb
      .selectFrom('labels')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('owner_id', '=', ownerId),
  );
  return held?.n ?? 0;
}

export async function insertLabel(
  client: SqlClient,
  label: { id: string; ownerId: string; name: string; color: string; at: Date },
): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('labels').values({
      id: label.id,
      owner_id: label.ownerId,
      name: label.name,
      color: label.color,
      created_at: label.at,
      updated_at: label.at,
    }),
  );
}

export async function updateLabel(client: SqlClient, labelId: string, label: { name: string; color: string; at: Date }): Promise<void> {
  await affected(
    client,
    chatDb.updateTable('labels').set({ name: label.name, color: label.color, updated_at: label.at }).where('id', '=', labelId),
  );
}

/** Takes the label off every room it is on; returns those rooms. */
export async function deleteRoomLabelsOf(client: SqlClient, labelId: string): Promise<string[]> {
  const removed = await rows(client, chatDb.deleteFrom('room_labels').where('label_id', '=', labelId).returning('room_id'));
  return removed.map((r) => r.room_id);
}

export async function deleteLabel(client: SqlClient, labelId: string): Promise<void> {
  await affected(client, chatDb.deleteFrom('labels').where('id', '=', labelId));
}

/** Those of the labels the owner has, held in `key share` so a concurrent delete of one waits. */
export async function lockOwnedLabels(client: SqlClient, ownerId: string, labelIds: string[]): Promise<string[]> {
  const owned = await rows(
    client,
    chatDb
      .selectFrom('labels')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('id', '=', sql<string>`any(${labelIds}::uuid[])`)
      .forKeyShare(),
  );
  return owned.map((r) => r.id);
}

/** Takes the account's labels off the room except the given ones; returns how many it took off. */
export async function removeRoomLabelsExcept(client: SqlClient, accountId: string, roomId: string, labelIds: string[]): Promise<number> {
  return affected(
    client,
    chatDb
      .deleteFrom('room_labels')
      .where('account_id', '=', accountId)
      .where('room_id', '=', roomId)
      .where((eb) => eb.not(eb('label_id', '=', sql<string>`any(${labelIds}::uuid[])`))),
  );
}

/** Puts the labels on the room (those already on it stay); returns how many it added. No labels: no statement. */
export async function addRoomLabels(client: SqlClient, accountId: string, roomId: string, labelIds: string[], at: Date): Promise<number> {
  if (labelIds.length === 0) return 0;
  return affected(
    client,
    chatDb
      .insertInto('room_labels')
      .values(labelIds.map((labelId) => ({ label_id: labelId, room_id: roomId, account_id: accountId, created_at: at })))
      .onConflict((oc) => oc.doNothing()),
  );
}

/** The caller's label ids on a room, by label name. */
export async function roomLabelIds(db: Runner, accountId: string, roomId: string): Promise<string[]> {
  const found = await rows(
    db,
    chatDb
      .selectFrom('room_labels as rl')
      .innerJoin('labels as l', 'l.id', 'rl.label_id')
      .select('l.id')
      .where('rl.account_id', '=', accountId)
      .where('rl.room_id', '=', roomId)
      .orderBy(sql`lower(l.name)`)
      .orderBy('l.id'),
  );
  return found.map((r) => r.id);
}

export const examples: QueryExamples = {
  labelsOf: (db) => labelsOf(db, example.id),
  labelOf: (db) => labelOf(db, example.id, example.otherId, true),
  lockLabelCreation: (db) => lockLabelCreation(db, example.id),
  countLabels: (db) => countLabels(db, example.id),
  insertLabel: (db) => insertLabel(db, { id: example.id, ownerId: example.otherId, name: example.text, color: '#FF0000', at: example.at }),
  updateLabel: (db) => updateLabel(db, example.id, { name: example.text, color: '#FF0000', at: example.at }),
  deleteRoomLabelsOf: (db) => deleteRoomLabelsOf(db, example.id),
  deleteLabel: (db) => deleteLabel(db, example.id),
  lockOwnedLabels: (db) => lockOwnedLabels(db, example.id, [example.otherId]),
  removeRoomLabelsExcept: (db) => removeRoomLabelsExcept(db, example.id, example.otherId, [example.id]),
  addRoomLabels: (db) => addRoomLabels(db, example.id, example.otherId, [example.id, example.otherId], example.at),
  roomLabelIds: (db) => roomLabelIds(db, example.id, example.otherId),
};
