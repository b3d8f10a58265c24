// The tables chat/broadcasts owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const BroadcastEntity = defineEntity({
  name: 'Broadcast',
  tableName: 'broadcasts',
  properties: {
    id: p.uuid().primary(),
    seq: p.bigint('number').autoincrement().generated('identity'),
    title: p.text().nullable(),
    text: p.text(),
    modules: p.array().columnType('text[]').nullable(),
    createdBy: reference(p.uuid().fieldName('created_by'), 'Account', 'broadcasts_created_by_fkey'),
    createdAt: p.datetime().fieldName('created_at'),
  },
  uniques: [{ name: 'broadcasts_seq_key', properties: ['seq'] }],
});
export type Broadcast = InferEntity<typeof BroadcastEntity>;

export const BroadcastReadEntity = defineEntity({
  name: 'BroadcastRead',
  tableName: 'broadcast_reads',
  properties: {
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'broadcast_reads_account_id_fkey'),
    lastReadSeq: p.bigint('number').fieldName('last_read_seq'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
});
export type BroadcastRead = InferEntity<typeof BroadcastReadEntity>;
