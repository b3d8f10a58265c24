// The tables chat/channels owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const ChannelEntity = defineEntity({
  name: 'Channel',
  tableName: 'channels',
  properties: {
    id: p.uuid().primary(),
    moduleCode: p.text().fieldName('module_code'),
    customerAccountId: p.text().fieldName('customer_account_id'),
    name: p.text(),
    description: p.text().nullable(),
    membershipMode: p.text().fieldName('membership_mode'),
    rule: p.json<unknown>().nullable(),
    memberCount: p.integer().fieldName('member_count').defaultRaw('0'),
    createdBy: reference(p.uuid().fieldName('created_by'), 'Account', 'channels_created_by_fkey'),
    createdAt: p.datetime().fieldName('created_at'),
    deletedAt: p.datetime().fieldName('deleted_at').nullable(),
  },
  indexes: [
    {
      name: 'channels_rule_tenant',
      properties: ['moduleCode', 'customerAccountId', 'id'],
      where: "((membership_mode = 'RULE'::text) AND (deleted_at IS NULL))",
    },
  ],
});
export type Channel = InferEntity<typeof ChannelEntity>;

export const ChannelMemberEntity = defineEntity({
  name: 'ChannelMember',
  tableName: 'channel_members',
  properties: {
    channelId: reference(p.uuid().primary().fieldName('channel_id'), 'Channel', 'channel_members_channel_id_fkey', 'cascade'),
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'channel_members_account_id_fkey'),
    role: p.text(),
    pinned: p.boolean().defaultRaw('false'),
    joinedAt: p.datetime().fieldName('joined_at'),
  },
  indexes: [
    { name: 'channel_members_by_account', properties: ['accountId', 'channelId'] },
    { name: 'channel_members_joined', properties: ['channelId', 'joinedAt', 'accountId'] },
  ],
});
export type ChannelMember = InferEntity<typeof ChannelMemberEntity>;
