// Accounts are the callers' identity: every interface's authentication reads them (core/auth), so the entity is in
// the shared core; the chat registers and manages them (src/chat/accounts).
import { ArrayType, defineEntity, p, type InferEntity, type Platform, type TransformContext } from '@mikro-orm/core';
import { reference } from '../../platform/db/reference.js';

/**
 * text[] written as a PostgreSQL array literal with every element quoted and escaped. MikroORM's ArrayType leaves
 * elements with whitespace or the word NULL unquoted and JSON-escapes the others, so tags such as "\n" failed with
 * a 500 (malformed array literal) and tags such as "a\tb" or "NULL" were stored altered.
 */
class TextArrayType extends ArrayType<string> {
  override convertToDatabaseValue(value: string[] | null, platform: Platform, context?: TransformContext): string | null {
    if (!Array.isArray(value)) return super.convertToDatabaseValue(value, platform, context);
    return `{${value.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
  }
}

export const AccountEntity = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: p.uuid().primary(),
    moduleCode: reference(p.text().fieldName('module_code'), 'Module', 'accounts_module_code_fkey'),
    customerAccountId: p.text().fieldName('customer_account_id'),
    displayName: p.text().fieldName('display_name'),
    avatarUrl: p.text().fieldName('avatar_url').nullable(),
    accountType: p.text().fieldName('account_type'),
    status: p.text(),
    team: p.text().nullable(),
    department: p.text().nullable(),
    role: p.text().nullable(),
    tags: p.array().type(new TextArrayType()).columnType('text[]').defaultRaw("'{}'::text[]"),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
    updatedAt: p.datetime().fieldName('updated_at').defaultRaw('now()'),
    email: p.text().nullable(),
    // the Bot API's user id, drawn from the sequence bot_api_ids shared with rooms (its default, which MikroORM reads as autoincrement)
    botApiId: p.bigint('number').fieldName('bot_api_id').autoincrement(),
    // the handle @username mentions resolve (docs/adr/0112-mentions.md); unique per customer whatever its case
    username: p.text().nullable(),
  },
  indexes: [
    { name: 'accounts_customer', properties: ['customerAccountId', 'moduleCode'] },
    // an expression (the lower-cased name), which MikroORM cannot declare as a unique: given as DDL, matched by name
    {
      name: 'accounts_username',
      expression:
        'CREATE UNIQUE INDEX accounts_username ON accounts USING btree (customer_account_id, lower(username)) WHERE (username IS NOT NULL)',
    },
  ],
  uniques: [{ name: 'accounts_bot_api_id', properties: ['botApiId'] }],
});
export type Account = InferEntity<typeof AccountEntity>;
