// The statements of a bot's own row: the token gate, the checks a long poll repeats, the webhook's lock and its info,
// the update kinds it asked for and its command menu.
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { affected, firstRow, type Runner } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** The live bot of a token hash whose account is active; undefined when there is none. */
export async function botOfTokenHash(db: Runner, hash: Buffer) {
  return firstRow(
    db,
    chatDb
      .selectFrom('bots as b')
      .innerJoin('accounts as a', 'a.id', 'b.account_id')
      .select(['b.id', 'b.account_id', 'a.bot_api_id', 'b.username', 'a.display_name', 'b.module_code', 'b.customer_account_id'])
      .where('b.token_hash', '=', hash)
      .where('b.deleted_at', 'is', null)
      .where('a.status', '=', 'ACTIVE'),
  );
}

/** The bot's webhook while the token is still its token and bot and account are live; undefined otherwise. */
export async function liveBotWebhook(db: Runner, botId: string, tokenHash: Buffer) {
  return firstRow(
    db,
    chatDb
      .selectFrom('bots as b')
      .innerJoin('accounts as a', 'a.id', 'b.account_id')
      .select('b.webhook_url')
      .where('b.id', '=', botId)
      .where('b.token_hash', '=', tokenHash)
      .where('b.deleted_at', 'is', null)
      .where('a.status', '=', 'ACTIVE'),
  );
}

/** The update kinds the bot receives; null for every kind. */
export async function setAllowedUpdates(db: Runner, botId: string, kinds: string[] | null): Promise<void> {
  await affected(db, chatDb.updateTable('bots').set({ allowed_updates: kinds }).where('id', '=', botId));
}

/** Locks the live bot's row while the token is still its token; false when it is not. */
export async function lockBotOfToken(client: SqlClient, botId: string, tokenHash: Buffer): Promise<boolean> {
  const locked = await firstRow(
    client,
    chatDb
      .selectFrom('bots')
      .select('id')
      .where('id', '=', botId)
      .where('token_hash', '=', tokenHash)
      .where('deleted_at', 'is', null)
      .forUpdate(),
  );
  return locked !== undefined;
}

/** The webhook's settings, its last error and how many updates wait. */
export async function webhookInfoOf(db: Runner, botId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('bots as b')
      .select([
        'b.webhook_url',
        'b.webhook_max_connections',
        'b.webhook_last_error_at',
        'b.webhook_last_error_message',
        'b.allowed_updates',
      ])
      .select((eb) => [
        eb('b.webhook_certificate', 'is not', null).$castTo<boolean>().as('has_certificate'),
        eb
          .selectFrom('bot_updates as u')
          .whereRef('u.bot_id', '=', 'b.id')
          .select(sql<number>`count(*)::int`.as('n'))
          .$asScalar()
          .as('pending'),
      ])
      .where('b.id', '=', botId),
  );
}

export interface BotCommand {
  command: string;
  description: string;
}

export async function setCommands(db: Runner, botId: string, commands: BotCommand[]): Promise<void> {
  await affected(
    db,
    chatDb
      .updateTable('bots')
      .set({ commands: JSON.stringify(commands) })
      .where('id', '=', botId),
  );
}

/** The bot's command menu; undefined when the bot is gone. */
export async function commandsOf(db: Runner, botId: string): Promise<BotCommand[] | undefined> {
  const found = await firstRow(
    db,
    chatDb
      .selectFrom('bots')
      .select((eb) => eb.ref('commands').$castTo<BotCommand[]>().as('commands'))
      .where('id', '=', botId),
  );
  return found?.commands;
}

export async function clearCommands(db: Runner, botId: string): Promise<void> {
  await affected(
    db,
    chatDb
      .updateTable('bots')
      .set({ commands: sql`'[]'` })
      .where('id', '=', botId),
  );
}

export const examples: QueryExamples = {
  botOfTokenHash: (db) => botOfTokenHash(db, Buffer.from(example.text)),
  liveBotWebhook: (db) => liveBotWebhook(db, example.id, Buffer.from(example.text)),
  setAllowedUpdates: (db) => setAllowedUpdates(db, example.id, ['message', 'callback_query']),
  lockBotOfToken: (db) => lockBotOfToken(db, example.id, Buffer.from(example.text)),
  webhookInfoOf: (db) => webhookInfoOf(db, example.id),
  setCommands: (db) => setCommands(db, example.id, [{ command: 'start', description: example.text }]),
  commandsOf: (db) => commandsOf(db, example.id),
  clearCommands: (db) => clearCommands(db, example.id),
};
