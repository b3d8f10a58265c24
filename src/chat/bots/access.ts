// Who manages a bot: the accounts of its module and customer (its owning tenant), and platform administrators.
// Anyone else is told the bot does not exist.
import type { Runner } from '../../platform/db/typed.js';
import type { Caller } from '../base/context.js';
import { botErrors } from './errors.js';
import { loadBot, lockBotOwner, type BotRow } from './bot-queries.js';

export function manages(caller: Caller, bot: { module_code: string; customer_account_id: string }): boolean {
  return caller.platformAdmin || (caller.moduleCode === bot.module_code && caller.customerAccountId === bot.customer_account_id);
}

/** The live bot, when the caller manages it; else 404 bot_not_found. */
export async function managedBot(db: Runner, caller: Caller, botId: string): Promise<BotRow> {
  const bot = await loadBot(db, botId);
  if (!bot || !manages(caller, bot)) throw botErrors.notFound();
  return bot;
}

/** Locks the live bot's row for the rest of the transaction, when the caller manages it; else 404 bot_not_found. */
export async function lockManagedBot(client: Runner, caller: Caller, botId: string): Promise<void> {
  const bot = await lockBotOwner(client, botId);
  if (!bot || !manages(caller, bot)) throw botErrors.notFound();
}
