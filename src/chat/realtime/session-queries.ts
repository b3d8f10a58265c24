// The statement a STOMP session sends of its own: its account's status, read again while the session lasts.
import { firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** The account's status; null for an account that is none. */
export async function accountStatus(db: Runner, accountId: string) {
  return (await firstRow(db, chatDb.selectFrom('accounts').select('status').where('id', '=', accountId)))?.status ?? null;
}

export const examples: QueryExamples = {
  accountStatus: (db) => accountStatus(db, example.id),
};
