// The reminder bot: one BOT account per module and customer, made on first use with a deterministic id (a name-
// based uuid), so concurrent first calls on any node agree on it without coordination.
import { v5 } from 'uuid';
import type { Caller } from '../context.js';
import type { Queryable } from './membership.js';

// Fixed namespace of the platform's name-based system account ids; never change it (ids would move).
const systemAccountNamespace = '5d0c8a9e-4f0b-4c55-9a57-8b7f0c6e2d31';

export function reminderBotId(moduleCode: string, customerAccountId: string): string {
  return v5(`reminder-bot\n${moduleCode}\n${customerAccountId}`, systemAccountNamespace);
}

export async function ensureReminderBot(db: Queryable, caller: Caller): Promise<string> {
  const id = reminderBotId(caller.moduleCode, caller.customerAccountId);
  await db.query(
    `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status)
     values ($1, $2, $3, 'Reminders', 'BOT', 'ACTIVE') on conflict (id) do nothing`,
    [id, caller.moduleCode, caller.customerAccountId],
  );
  const { rows } = await db.query<{ module_code: string; customer_account_id: string; account_type: string }>(
    'select module_code, customer_account_id, account_type from accounts where id = $1',
    [id],
  );
  const bot = rows[0];
  // The id is reserved; an account registered under it by hand would be a configuration fault, not a bot.
  if (!bot || bot.account_type !== 'BOT' || bot.module_code !== caller.moduleCode || bot.customer_account_id !== caller.customerAccountId) {
    throw new Error(
      `account ${id} is reserved for the reminder bot of ${caller.moduleCode}/${caller.customerAccountId} but is another account`,
    );
  }
  return id;
}
