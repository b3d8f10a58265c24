// Who manages a bot: the accounts of its module and customer (its owning tenant), and platform administrators.
// Anyone else is told the bot does not exist.
import type { SqlClient, SqlPool } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import { botErrors } from './errors.js';
import { loadBot, type BotRow } from './rows.js';

export function manages(caller: Caller, bot: { module_code: string; customer_account_id: string }): boolean {
  return caller.platformAdmin || (caller.moduleCode === bot.module_code && caller.customerAccountId === bot.customer_account_id);
}

/** The live bot, when the caller manages it; else 404 bot_not_found. */
export async function managedBot(db: SqlPool | SqlClient, caller: Caller, botId: string): Promise<BotRow> {
  const bot = await loadBot(db, botId);
  if (!bot || !manages(caller, bot)) throw botErrors.notFound();
  return bot;
}

/** Locks the live bot's row for the rest of the transaction, when the caller manages it; else 404 bot_not_found. */
export async function lockManagedBot(client: SqlClient, caller: Caller, botId: string): Promise<void> {
  const { rows } = await client.query<{ module_code: string; customer_account_id: string }>(
    'select module_code, customer_account_id from bots where id = $1 and deleted_at is null for update',
    [botId],
  );
  if (!rows[0] || !manages(caller, rows[0])) throw botErrors.notFound();
}
