// The statements of module administration besides its entities: which customers hold keys of which module.
import { rows, type Runner } from '../../platform/db/typed.js';
import type { QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** Every (module, customer) pair that holds a key, by customer. */
export async function keyCustomers(db: Runner) {
  return rows(
    db,
    chatDb.selectFrom('customer_keys').select(['module_code', 'customer_account_id']).distinct().orderBy('customer_account_id'),
  );
}

export const examples: QueryExamples = {
  keyCustomers: (db) => keyCustomers(db),
};
