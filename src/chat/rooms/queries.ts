// The statements of rooms: who may be put in one, its creation and settings, its members put in and its deletion,
// a channel room's members, and the reminder bot's account.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { AddMemberPolicy, RoomRole, RoomType } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';

/**
 * New members start with the room's history read (read mark at the room's current sequence number): joining an old
 * room does not make its whole past unread. Callers adding to an existing room hold its row lock, so no send
 * slips between reading last_seq and the insert.
 */
export async function insertMembers(
  client: SqlClient,
  roomId: string,
  members: Array<{ accountId: string; role: RoomRole }>,
  at: Date,
): Promise<string[]> {
  const added = await rows(
    client,
    chatDb
      .insertInto('room_members')
      .columns(['room_id', 'account_id', 'role', 'joined_at', 'last_read_seq'])
      .expression(
        chatDb.selectNoFrom((eb) => [
          sql<string>`${roomId}::uuid`.as('room_id'),
          sql<string>`unnest(${members.map((m) => m.accountId)}::uuid[])`.as('account_id'),
          sql<string>`unnest(${members.map((m) => m.role)}::text[])`.as('role'),
          sql<Date>`${at}::timestamptz`.as('joined_at'),
          eb.fn.coalesce(eb.selectFrom('rooms').select('last_seq').where('id', '=', roomId), sql<number>`0`).as('last_read_seq'),
        ]),
      )
      .onConflict((oc) => oc.doNothing())
      .returning('account_id'),
  );
  return added.map((r) => r.account_id);
}

/** Which of the accounts are registered, active, of the customer and (unless moduleCode is null) of the module. */
export async function addableAccounts(db: Runner, ids: string[], customerAccountId: string, moduleCode: string | null): Promise<string[]> {
  const accounts = await rows(
    db,
    chatDb
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', sql<string>`any(${ids}::uuid[])`)
      .where('status', '=', 'ACTIVE')
      .where('customer_account_id', '=', customerAccountId)
      .$if(moduleCode !== null, (q) => q.where('module_code', '=', moduleCode!)),
  );
  return accounts.map((r) => r.id);
}

/** The channel's members besides the account, in joining order. */
export async function channelMembersBesides(client: SqlClient, channelId: string, accountId: string): Promise<string[]> {
  const members = await rows(
    client,
    chatDb
      .selectFrom('channel_members')
      .select('account_id')
      .where('channel_id', '=', channelId)
      .where('account_id', '<>', accountId)
      .orderBy('joined_at')
      .orderBy('account_id'),
  );
  return members.map((r) => r.account_id);
}

/** Removes every member row of the room; answers the former members. */
export async function deleteAllMembers(client: SqlClient, roomId: string): Promise<string[]> {
  const former = await rows(client, chatDb.deleteFrom('room_members').where('room_id', '=', roomId).returning('account_id'));
  return former.map((r) => r.account_id);
}

/** Marks the room deleted, with no members. */
export async function markRoomDeleted(client: SqlClient, roomId: string, at: Date): Promise<void> {
  await affected(client, chatDb.updateTable('rooms').set({ deleted_at: at, member_count: 0 }).where('id', '=', roomId));
}

/** Cancels the room's pending join requests. */
export async function cancelPendingRequests(client: SqlClient, roomId: string, by: string, at: Date): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('join_requests')
      .set({ status: 'CANCELLED', resolved_at: at, resolved_by: by })
      .where('room_id', '=', roomId)
      .where('status', '=', 'PENDING'),
  );
}

export interface NewRoom {
  id: string;
  type: RoomType;
  name: string | null;
  description: string | null;
  addMemberPolicy: AddMemberPolicy;
  createdBy: string;
  memberCount: number;
  at: Date;
  channelId: string | null;
}

export async function insertRoom(client: SqlClient, room: NewRoom): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('rooms').values({
      id: room.id,
      type: room.type,
      name: room.name,
      description: room.description,
      add_member_policy: room.addMemberPolicy,
      created_by: room.createdBy,
      member_count: room.memberCount,
      created_at: room.at,
      last_activity_at: room.at,
      channel_id: room.channelId,
    }),
  );
}

/** Inserts the get-or-create room of the key unless it exists; false when it did. */
export async function insertSingletonRoom(
  client: SqlClient,
  room: { id: string; type: RoomType; key: string; createdBy: string; memberCount: number; at: Date },
): Promise<boolean> {
  const inserted = await rows(
    client,
    chatDb
      .insertInto('rooms')
      .values({
        id: room.id,
        type: room.type,
        name: null,
        add_member_policy: 'ADMIN_ONLY',
        created_by: room.createdBy,
        member_count: room.memberCount,
        created_at: room.at,
        last_activity_at: room.at,
        singleton_key: room.key,
      })
      .onConflict((oc) => oc.column('singleton_key').doNothing())
      .returning('id'),
  );
  return inserted.length > 0;
}

/** The room's name, description and add-member policy. */
export async function roomSettings(client: SqlClient, roomId: string) {
  return firstRow(client, chatDb.selectFrom('rooms').select(['name', 'description', 'add_member_policy']).where('id', '=', roomId));
}

export async function writeRoomSettings(
  client: SqlClient,
  roomId: string,
  settings: { name: string | null; description: string | null; addMemberPolicy: string },
): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('rooms')
      .set({ name: settings.name, description: settings.description, add_member_policy: settings.addMemberPolicy })
      .where('id', '=', roomId),
  );
}

/** Inserts the reminder bot's account unless its id exists. */
export async function insertReminderBot(db: Runner, bot: { id: string; moduleCode: string; customerAccountId: string }): Promise<void> {
  await affected(
    db,
    chatDb
      .insertInto('accounts')
      .values({
        id: bot.id,
        module_code: bot.moduleCode,
        customer_account_id: bot.customerAccountId,
        display_name: 'Reminders',
        account_type: 'BOT',
        status: 'ACTIVE',
      })
      .onConflict((oc) => oc.column('id').doNothing()),
  );
}

/** The account's module, customer and type. */
export async function accountIdentity(db: Runner, id: string) {
  return firstRow(db, chatDb.selectFrom('accounts').select(['module_code', 'customer_account_id', 'account_type']).where('id', '=', id));
}

export const examples: QueryExamples = {
  insertMembers: (db) =>
    insertMembers(
      db,
      example.id,
      [
        { accountId: example.id, role: 'OWNER' },
        { accountId: example.otherId, role: 'MEMBER' },
      ],
      example.at,
    ),
  addableAccounts: (db) => addableAccounts(db, [example.id, example.otherId], 'acme', 'crm'),
  channelMembersBesides: (db) => channelMembersBesides(db, example.id, example.otherId),
  deleteAllMembers: (db) => deleteAllMembers(db, example.id),
  markRoomDeleted: (db) => markRoomDeleted(db, example.id, example.at),
  cancelPendingRequests: (db) => cancelPendingRequests(db, example.id, example.otherId, example.at),
  insertRoom: (db) =>
    insertRoom(db, {
      id: example.id,
      type: 'GROUP',
      name: example.text,
      description: null,
      addMemberPolicy: 'ALL_MEMBERS',
      createdBy: example.otherId,
      memberCount: 2,
      at: example.at,
      channelId: null,
    }),
  insertSingletonRoom: (db) =>
    insertSingletonRoom(db, {
      id: example.id,
      type: 'SELF',
      key: `self:${example.otherId}`,
      createdBy: example.otherId,
      memberCount: 1,
      at: example.at,
    }),
  roomSettings: (db) => roomSettings(db, example.id),
  writeRoomSettings: (db) => writeRoomSettings(db, example.id, { name: example.text, description: null, addMemberPolicy: 'ADMIN_ONLY' }),
  insertReminderBot: (db) => insertReminderBot(db, { id: example.id, moduleCode: 'crm', customerAccountId: 'acme' }),
  accountIdentity: (db) => accountIdentity(db, example.id),
};
