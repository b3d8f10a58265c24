import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const AccountEntity = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: p.uuid().primary(),
    moduleCode: p.text().fieldName('module_code'),
    customerAccountId: p.text().fieldName('customer_account_id'),
    displayName: p.text().fieldName('display_name'),
    avatarUrl: p.text().fieldName('avatar_url').nullable(),
    accountType: p.text().fieldName('account_type'),
    status: p.text(),
    team: p.text().nullable(),
    department: p.text().nullable(),
    role: p.text().nullable(),
    tags: p.array().columnType('text[]'),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
});
export type Account = InferEntity<typeof AccountEntity>;
