// The reminder bot: one BOT account per module and customer, made on first use with a deterministic id (a name-
// based uuid), so concurrent first calls on any node agree on it without coordination.
import { v5 } from 'uuid';
import type { Caller } from '../base/context.js';
import type { Queryable } from '../base/membership.js';
import { accountIdentity, insertReminderBot } from './queries.js';

// Fixed namespace of the platform's name-based system account ids; never change it (ids would move).
const systemAccountNamespace = '5d0c8a9e-4f0b-4c55-9a57-8b7f0c6e2d31';

export function reminderBotId(moduleCode: string, customerAccountId: string): string {
  return v5(`reminder-bot\n${moduleCode}\n${customerAccountId}`, systemAccountNamespace);
}

export async function ensureReminderBot(db: Queryable, caller: Caller): Promise<string> {
  const id = reminderBotId(caller.moduleCode, caller.customerAccountId);
  await insertReminderBot(db, { id, moduleCode: caller.moduleCode, customerAccountId: caller.customerAccountId });
  const bot = await accountIdentity(db, id);
  // The id is reserved; an account registered under it by hand would be a configuration fault, not a bot.
  if (!bot || bot.account_type !== 'BOT' || bot.module_code !== caller.moduleCode || bot.customer_account_id !== caller.customerAccountId) {
    throw new Error(
      `account ${id} is reserved for the reminder bot of ${caller.moduleCode}/${caller.customerAccountId} but is another account`,
    );
  }
  return id;
}
