// The tables chat/threads owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const ThreadFollowEntity = defineEntity({
  name: 'ThreadFollow',
  tableName: 'thread_follows',
  properties: {
    rootId: reference(p.uuid().primary().fieldName('root_id'), 'Message', 'thread_follows_root_id_fkey', 'cascade'),
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'thread_follows_account_id_fkey'),
    roomId: p.uuid().fieldName('room_id'),
    state: p.text(),
    lastReadSeq: p.bigint('number').fieldName('last_read_seq').defaultRaw('0'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  indexes: [{ name: 'thread_follows_following', properties: ['accountId'], where: "(state = 'FOLLOWING'::text)" }],
  checks: [
    {
      name: 'thread_follows_state',
      expression: "((state = ANY (ARRAY['FOLLOWING'::text, 'UNFOLLOWED'::text, 'NONE'::text])))",
    },
  ],
});
export type ThreadFollow = InferEntity<typeof ThreadFollowEntity>;
