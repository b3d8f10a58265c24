// The statements of the key gates' caches: an account's state and a customer's verify keys, each loaded on a miss.
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { coreDb } from '../tables.js';

/** The account's status and owner; undefined when no account has this (lowercase) id. */
export async function accountById(db: Runner, id: string) {
  return firstRow(db, coreDb.selectFrom('accounts').select(['id', 'status', 'module_code', 'customer_account_id']).where('id', '=', id));
}

/** The verify keys a customer of a module registered, as stored (usable or not). */
export async function customerVerifyKeys(db: Runner, moduleCode: string, customerAccountId: string) {
  return rows(
    db,
    coreDb
      .selectFrom('customer_keys')
      .select(['kid', 'algorithm', 'public_key_pem'])
      .where('module_code', '=', moduleCode)
      .where('customer_account_id', '=', customerAccountId),
  );
}

/** Every stored verify key, with whose it is. */
export async function allVerifyKeys(db: Runner) {
  return rows(db, coreDb.selectFrom('customer_keys').select(['module_code', 'customer_account_id', 'kid', 'algorithm', 'public_key_pem']));
}

export const examples: QueryExamples = {
  accountById: (db) => accountById(db, example.id),
  customerVerifyKeys: (db) => customerVerifyKeys(db, 'crm', example.otherId),
  allVerifyKeys: (db) => allVerifyKeys(db),
};
