// Modules and their customers' verify keys: the tenancy every account belongs to and the keys that sign its tokens,
// read by the shared authentication (core/auth); the chat's admin API manages them (src/chat/admin-modules).
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../platform/db/reference.js';

export const ModuleEntity = defineEntity({
  name: 'Module',
  tableName: 'modules',
  properties: {
    code: p.text().primary(),
    name: p.text(),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
  },
});
export type Module = InferEntity<typeof ModuleEntity>;

export const CustomerKeyEntity = defineEntity({
  name: 'CustomerKey',
  tableName: 'customer_keys',
  properties: {
    id: p.uuid().primary(),
    moduleCode: reference(p.text().fieldName('module_code'), 'Module', 'customer_keys_module_code_fkey'),
    customerAccountId: p.text().fieldName('customer_account_id'),
    kid: p.text(),
    algorithm: p.text(),
    publicKeyPem: p.text().fieldName('public_key_pem'),
    fingerprint: p.text(),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
  },
  uniques: [{ name: 'customer_keys_module_code_customer_account_id_kid_key', properties: ['moduleCode', 'customerAccountId', 'kid'] }],
});
export type CustomerKey = InferEntity<typeof CustomerKeyEntity>;
