import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ModuleEntity = defineEntity({
  name: 'Module',
  tableName: 'modules',
  properties: {
    code: p.text().primary(),
    name: p.text(),
    createdAt: p.datetime().fieldName('created_at'),
  },
});
export type Module = InferEntity<typeof ModuleEntity>;

export const CustomerKeyEntity = defineEntity({
  name: 'CustomerKey',
  tableName: 'customer_keys',
  properties: {
    id: p.uuid().primary(),
    moduleCode: p.text().fieldName('module_code'),
    customerAccountId: p.text().fieldName('customer_account_id'),
    kid: p.text(),
    algorithm: p.text(),
    publicKeyPem: p.text().fieldName('public_key_pem'),
    fingerprint: p.text(),
    createdAt: p.datetime().fieldName('created_at'),
  },
});
export type CustomerKey = InferEntity<typeof CustomerKeyEntity>;
