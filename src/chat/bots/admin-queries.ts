// The statements of bot administration: creating a bot with its account, changing its profile, its soft delete and
// its token.
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

export async function moduleExists(db: Runner, moduleCode: string): Promise<boolean> {
  return (await firstRow(db, chatDb.selectFrom('modules').select('code').where('code', '=', moduleCode))) !== undefined;
}

export interface NewBot {
  botId: string;
  accountId: string;
  moduleCode: string;
  customerAccountId: string;
  username: string;
  displayName: string;
  description: string | null;
  avatarUrl: string | null;
  at: Date;
}

/** Inserts the bot's account (of type BOT); its integer id, which the bot's token starts with. */
export async function insertBotAccount(client: SqlClient, bot: NewBot): Promise<number> {
  const account = await firstRow(
    client,
    chatDb
      .insertInto('accounts')
      .values({
        id: bot.accountId,
        module_code: bot.moduleCode,
        customer_account_id: bot.customerAccountId,
        display_name: bot.displayName,
        avatar_url: bot.avatarUrl,
        account_type: 'BOT',
        status: 'ACTIVE',
        created_at: bot.at,
        updated_at: bot.at,
      })
      .returning('bot_api_id'),
  );
  return account!.bot_api_id;
}

export async function insertBot(client: SqlClient, bot: NewBot, tokenHash: Buffer): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('bots').values({
      id: bot.botId,
      account_id: bot.accountId,
      module_code: bot.moduleCode,
      customer_account_id: bot.customerAccountId,
      username: bot.username,
      description: bot.description,
      token_hash: tokenHash,
      created_at: bot.at,
      updated_at: bot.at,
    }),
  );
}

export async function updateBotRow(
  client: SqlClient,
  botId: string,
  values: { username: string; description: string | null; at: Date },
): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('bots')
      .set({ username: values.username, description: values.description, updated_at: values.at })
      .where('id', '=', botId),
  );
}

export async function updateBotAccount(
  client: SqlClient,
  accountId: string,
  values: { displayName: string; avatarUrl: string | null; at: Date },
): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('accounts')
      .set({ display_name: values.displayName, avatar_url: values.avatarUrl, updated_at: values.at })
      .where('id', '=', accountId),
  );
}

/** Marks the bot deleted and removes its webhook; the bot's account id. */
export async function softDeleteBot(client: SqlClient, botId: string, at: Date): Promise<string> {
  const deleted = await firstRow(
    client,
    chatDb
      .updateTable('bots')
      .set({ deleted_at: at, updated_at: at, webhook_url: null, webhook_secret: null })
      .where('id', '=', botId)
      .returning('account_id'),
  );
  return deleted!.account_id;
}

export async function deleteBotRoomSettings(client: SqlClient, botId: string): Promise<void> {
  await affected(client, chatDb.deleteFrom('bot_room_settings').where('bot_id', '=', botId));
}

/** Locks the account's row; its status, or undefined when there is no such account. */
export async function lockAccountStatus(client: SqlClient, accountId: string): Promise<string | undefined> {
  const before = await rows(client, chatDb.selectFrom('accounts').select('status').where('id', '=', accountId).forUpdate());
  return before[0]?.status;
}

export async function deactivateAccount(client: SqlClient, accountId: string, at: Date): Promise<void> {
  await affected(client, chatDb.updateTable('accounts').set({ status: 'DEACTIVATED', updated_at: at }).where('id', '=', accountId));
}

/** The integer id of the bot's account, which its token starts with. */
export async function botApiIdOf(client: SqlClient, botId: string): Promise<number> {
  const account = await firstRow(
    client,
    chatDb.selectFrom('bots as b').innerJoin('accounts as a', 'a.id', 'b.account_id').select('a.bot_api_id').where('b.id', '=', botId),
  );
  return account!.bot_api_id;
}

export async function setTokenHash(client: SqlClient, botId: string, tokenHash: Buffer, at: Date): Promise<void> {
  await affected(client, chatDb.updateTable('bots').set({ token_hash: tokenHash, updated_at: at }).where('id', '=', botId));
}

const newBot: NewBot = {
  botId: example.id,
  accountId: example.otherId,
  moduleCode: 'module',
  customerAccountId: example.otherId,
  username: 'example_bot',
  displayName: example.text,
  description: example.text,
  avatarUrl: null,
  at: example.at,
};

export const examples: QueryExamples = {
  moduleExists: (db) => moduleExists(db, 'module'),
  insertBotAccount: (db) => insertBotAccount(db, newBot),
  insertBot: (db) => insertBot(db, newBot, Buffer.alloc(32)),
  updateBotRow: (db) => updateBotRow(db, example.id, { username: 'example_bot', description: example.text, at: example.at }),
  updateBotAccount: (db) => updateBotAccount(db, example.id, { displayName: example.text, avatarUrl: null, at: example.at }),
  softDeleteBot: (db) => softDeleteBot(db, example.id, example.at),
  deleteBotRoomSettings: (db) => deleteBotRoomSettings(db, example.id),
  lockAccountStatus: (db) => lockAccountStatus(db, example.id),
  deactivateAccount: (db) => deactivateAccount(db, example.id, example.at),
  botApiIdOf: (db) => botApiIdOf(db, example.id),
  setTokenHash: (db) => setTokenHash(db, example.id, Buffer.alloc(32), example.at),
};
