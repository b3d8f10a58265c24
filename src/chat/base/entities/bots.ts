// The bots' tables (this folder's entities.ts holds the entities Telegram marks in a message's text).
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const BotEntity = defineEntity({
  name: 'Bot',
  tableName: 'bots',
  properties: {
    id: p.uuid().primary(),
    accountId: reference(p.uuid().fieldName('account_id'), 'Account', 'bots_account_id_fkey'),
    moduleCode: p.text().fieldName('module_code'),
    customerAccountId: p.text().fieldName('customer_account_id'),
    username: p.text(),
    description: p.text().nullable(),
    tokenHash: p.blob().fieldName('token_hash'),
    lastUpdateId: p.bigint('number').fieldName('last_update_id').defaultRaw('0'),
    allowedUpdates: p.array().columnType('text[]').fieldName('allowed_updates').nullable(),
    webhookUrl: p.text().fieldName('webhook_url').nullable(),
    webhookSecret: p.text().fieldName('webhook_secret').nullable(),
    webhookMaxConnections: p.integer().fieldName('webhook_max_connections').nullable(),
    webhookLastErrorAt: p.datetime().fieldName('webhook_last_error_at').nullable(),
    webhookLastErrorMessage: p.text().fieldName('webhook_last_error_message').nullable(),
    webhookFailures: p.integer().fieldName('webhook_failures').defaultRaw('0'),
    webhookRetryAt: p.datetime().fieldName('webhook_retry_at').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
    deletedAt: p.datetime().fieldName('deleted_at').nullable(),
    // the command menu (setMyCommands), [{command, description}]
    commands: p.json<unknown>().defaultRaw("'[]'::jsonb"),
    // the receiver's certificate (PEM) uploaded with setWebhook
    webhookCertificate: p.text().fieldName('webhook_certificate').nullable(),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - an indexed expression such as lower(name), which MikroORM cannot declare
  indexes: [
    {
      name: 'bots_tenant',
      properties: ['moduleCode', 'customerAccountId', 'createdAt', 'id'],
      where: '(deleted_at IS NULL)',
    },
    { name: 'bots_listed', properties: ['createdAt', 'id'], where: '(deleted_at IS NULL)' },
  ],
  uniques: [
    { name: 'bots_account_id_key', properties: ['accountId'] },
    { name: 'bots_token_hash_key', properties: ['tokenHash'] },
    {
      name: 'bots_username',
      expression: 'CREATE UNIQUE INDEX bots_username ON bots USING btree (lower(username)) WHERE (deleted_at IS NULL)',
    },
  ],
});
export type Bot = InferEntity<typeof BotEntity>;

export const BotRoomSettingEntity = defineEntity({
  name: 'BotRoomSetting',
  tableName: 'bot_room_settings',
  properties: {
    botId: reference(p.uuid().primary().fieldName('bot_id'), 'Bot', 'bot_room_settings_bot_id_fkey'),
    roomId: reference(p.uuid().primary().fieldName('room_id'), 'Room', 'bot_room_settings_room_id_fkey', 'cascade'),
    readAll: p.boolean().fieldName('read_all'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
});
export type BotRoomSetting = InferEntity<typeof BotRoomSettingEntity>;

export const BotUpdateEntity = defineEntity({
  name: 'BotUpdate',
  tableName: 'bot_updates',
  properties: {
    botId: reference(p.uuid().primary().fieldName('bot_id'), 'Bot', 'bot_updates_bot_id_fkey'),
    updateId: p.bigint('number').primary().fieldName('update_id'),
    id: p.uuid(),
    kind: p.text(),
    payload: p.json<unknown>(),
    createdAt: p.datetime().fieldName('created_at'),
  },
  indexes: [{ name: 'bot_updates_created', properties: ['createdAt'] }],
  uniques: [{ name: 'bot_updates_id_key', properties: ['id'] }],
});
export type BotUpdate = InferEntity<typeof BotUpdateEntity>;

export const BotCallbackQueryEntity = defineEntity({
  name: 'BotCallbackQuery',
  tableName: 'bot_callback_queries',
  properties: {
    id: p.uuid().primary(),
    botId: reference(p.uuid().fieldName('bot_id'), 'Bot', 'bot_callback_queries_bot_id_fkey'),
    roomId: reference(p.uuid().fieldName('room_id'), 'Room', 'bot_callback_queries_room_id_fkey', 'cascade'),
    messageId: reference(p.uuid().fieldName('message_id'), 'Message', 'bot_callback_queries_message_id_fkey', 'cascade'),
    accountId: reference(p.uuid().fieldName('account_id'), 'Account', 'bot_callback_queries_account_id_fkey'),
    data: p.text(),
    createdAt: p.datetime().fieldName('created_at'),
    answeredAt: p.datetime().fieldName('answered_at').nullable(),
  },
  indexes: [{ name: 'bot_callback_queries_created', properties: ['createdAt'] }],
});
export type BotCallbackQuery = InferEntity<typeof BotCallbackQueryEntity>;
