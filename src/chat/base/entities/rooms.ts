// The tables chat/rooms owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const RoomEntity = defineEntity({
  name: 'Room',
  tableName: 'rooms',
  properties: {
    id: p.uuid().primary(),
    type: p.text(),
    name: p.text().nullable(),
    description: p.text().nullable(),
    addMemberPolicy: p.text().fieldName('add_member_policy'),
    channelId: p.uuid().fieldName('channel_id').nullable(),
    createdBy: reference(p.uuid().fieldName('created_by'), 'Account', 'rooms_created_by_fkey'),
    memberCount: p.integer().fieldName('member_count').defaultRaw('0'),
    lastSeq: p.bigint('number').fieldName('last_seq').defaultRaw('0'),
    createdAt: p.datetime().fieldName('created_at'),
    lastActivityAt: p.datetime().fieldName('last_activity_at'),
    singletonKey: p.text().fieldName('singleton_key').nullable(),
    deletedAt: p.datetime().fieldName('deleted_at').nullable(),
    snapMessageId: p.uuid().fieldName('snap_message_id').nullable(),
    snappedBy: p.uuid().fieldName('snapped_by').nullable(),
    snappedAt: p.datetime().fieldName('snapped_at').nullable(),
    // the Bot API's chat id (negated for groups), drawn from the sequence bot_api_ids shared with accounts
    botApiId: p.bigint('number').fieldName('bot_api_id').autoincrement(),
  },
  indexes: [
    {
      name: 'rooms_channel',
      properties: ['channelId'],
      where: '((channel_id IS NOT NULL) AND (deleted_at IS NULL))',
    },
  ],
  uniques: [
    { name: 'rooms_singleton_key_key', properties: ['singletonKey'] },
    { name: 'rooms_bot_api_id', properties: ['botApiId'] },
  ],
});
export type Room = InferEntity<typeof RoomEntity>;

export const RoomMemberEntity = defineEntity({
  name: 'RoomMember',
  tableName: 'room_members',
  properties: {
    roomId: reference(p.uuid().primary().fieldName('room_id'), 'Room', 'room_members_room_id_fkey', 'cascade'),
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'room_members_account_id_fkey'),
    role: p.text(),
    joinedAt: p.datetime().fieldName('joined_at'),
    archived: p.boolean().defaultRaw('false'),
    mutedUntil: p.datetime().fieldName('muted_until').nullable(),
    notificationLevel: p.text().fieldName('notification_level').defaultRaw("'ALL'::text"),
    pinned: p.boolean().defaultRaw('false'),
    lastReadSeq: p.bigint('number').fieldName('last_read_seq').defaultRaw('0'),
    pinnedAt: p.datetime().fieldName('pinned_at').nullable(),
    // when the read mark last moved: the readAt of read receipts; null until the member first reads
    lastReadAt: p.datetime().fieldName('last_read_at').nullable(),
  },
  indexes: [
    { name: 'room_members_by_account', properties: ['accountId', 'archived'] },
    { name: 'room_members_joined', properties: ['roomId', 'joinedAt', 'accountId'] },
  ],
  // The trigger's function comes from the migration; MikroORM does not compare triggers it did not create, so the
  // schema check compares this DDL with the catalogue's.
  triggers: [
    {
      name: 'room_members_end_personal_rows',
      timing: 'after',
      events: ['delete'],
      forEach: 'statement',
      expression:
        'CREATE TRIGGER room_members_end_personal_rows AFTER DELETE ON room_members REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION end_personal_rows_with_membership()',
    },
  ],
});
export type RoomMember = InferEntity<typeof RoomMemberEntity>;

export const JoinRequestEntity = defineEntity({
  name: 'JoinRequest',
  tableName: 'join_requests',
  properties: {
    id: p.uuid().primary(),
    roomId: reference(p.uuid().fieldName('room_id'), 'Room', 'join_requests_room_id_fkey', 'cascade'),
    accountId: reference(p.uuid().fieldName('account_id'), 'Account', 'join_requests_account_id_fkey'),
    requestedBy: reference(p.uuid().fieldName('requested_by'), 'Account', 'join_requests_requested_by_fkey'),
    status: p.text(),
    createdAt: p.datetime().fieldName('created_at'),
    resolvedAt: p.datetime().fieldName('resolved_at').nullable(),
    resolvedBy: p.uuid().fieldName('resolved_by').nullable(),
  },
  indexes: [{ name: 'join_requests_pending_list', properties: ['roomId', 'id'], where: "(status = 'PENDING'::text)" }],
  uniques: [{ name: 'join_requests_pending', properties: ['roomId', 'accountId'], where: "(status = 'PENDING'::text)" }],
});
export type JoinRequest = InferEntity<typeof JoinRequestEntity>;
