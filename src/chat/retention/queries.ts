// The statements of the retention policies: a customer's default (module and customer) and a room's own.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

export interface Customer {
  moduleCode: string;
  customerAccountId: string;
}

/** The customer's default: undefined when it has none. */
export async function customerRetention(db: Runner, c: Customer) {
  return firstRow(
    db,
    chatDb
      .selectFrom('customer_retention')
      .select(['days', 'updated_at'])
      .where('module_code', '=', c.moduleCode)
      .where('customer_account_id', '=', c.customerAccountId),
  );
}

/** Writes the customer's default. */
export async function setCustomerRetention(client: SqlClient, c: Customer, days: number, at: Date): Promise<void> {
  await affected(
    client,
    chatDb
      .insertInto('customer_retention')
      .values({ module_code: c.moduleCode, customer_account_id: c.customerAccountId, days, updated_at: at })
      .onConflict((oc) => oc.columns(['module_code', 'customer_account_id']).doUpdateSet({ days, updated_at: at })),
  );
}

/** Removes the customer's default. */
export async function clearCustomerRetention(client: SqlClient, c: Customer): Promise<void> {
  await affected(
    client,
    chatDb.deleteFrom('customer_retention').where('module_code', '=', c.moduleCode).where('customer_account_id', '=', c.customerAccountId),
  );
}

/**
 * The room's own retention and its customer's default (the customer of the room's creator); undefined when there
 * is no such room.
 */
export async function roomRetention(db: Runner, roomId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('rooms as r')
      .innerJoin('accounts as a', 'a.id', 'r.created_by')
      .leftJoin('room_retention as rr', 'rr.room_id', 'r.id')
      .leftJoin('customer_retention as cr', (join) =>
        join.onRef('cr.module_code', '=', 'a.module_code').onRef('cr.customer_account_id', '=', 'a.customer_account_id'),
      )
      .select(['rr.days as days', 'cr.days as customer_days', sql<number | null>`least(rr.days, cr.days)`.as('effective_days')])
      .where('r.id', '=', roomId),
  );
}

/** Writes the room's own retention. */
export async function setRoomRetention(client: SqlClient, roomId: string, days: number, at: Date): Promise<void> {
  await affected(
    client,
    chatDb
      .insertInto('room_retention')
      .values({ room_id: roomId, days, updated_at: at })
      .onConflict((oc) => oc.column('room_id').doUpdateSet({ days, updated_at: at })),
  );
}

/** Removes the room's own retention: the room inherits the default. */
export async function clearRoomRetention(client: SqlClient, roomId: string): Promise<void> {
  await affected(client, chatDb.deleteFrom('room_retention').where('room_id', '=', roomId));
}

const customer: Customer = { moduleCode: 'crm', customerAccountId: 'customer-1' };

export const examples: QueryExamples = {
  customerRetention: (db) => customerRetention(db, customer),
  setCustomerRetention: (db) => setCustomerRetention(db, customer, 30, example.at),
  clearCustomerRetention: (db) => clearCustomerRetention(db, customer),
  roomRetention: (db) => roomRetention(db, example.id),
  setRoomRetention: (db) => setRoomRetention(db, example.id, 30, example.at),
  clearRoomRetention: (db) => clearRoomRetention(db, example.id),
};
