// The statements of export rows: start, read, claim with a lease, finish, and removal after the retention time.
import { sql } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

const exportColumns = ['id', 'account_id', 'state', 'created_at', 'completed_at', 'size', 'attempts'] as const;

/**
 * A queued export of the account; none (undefined) when another is already queued or running, which the partial
 * unique index account_exports_one_running refuses without an error.
 */
export async function insertExport(db: Runner, row: { id: string; accountId: string; at: Date }) {
  return firstRow(
    db,
    chatDb
      .insertInto('account_exports')
      .values({ id: row.id, account_id: row.accountId, state: 'queued', created_at: row.at })
      .onConflict((oc) =>
        oc
          .column('account_id')
          .where('state', 'in', [sql.lit('queued'), sql.lit('running')])
          .doNothing(),
      )
      .returning(exportColumns),
  );
}

/** The account's export with this id. */
export async function exportOf(db: Runner, accountId: string, id: string) {
  return firstRow(db, chatDb.selectFrom('account_exports').select(exportColumns).where('id', '=', id).where('account_id', '=', accountId));
}

/**
 * Claims the oldest export that is queued or whose worker's lease ran out, skipping one another worker holds
 * locked: it is then running under a new lease until `leaseUntil`.
 */
export async function claimExport(db: Runner, now: Date, leaseUntil: Date) {
  const next = chatDb
    .selectFrom('account_exports')
    .select('id')
    .where((eb) =>
      eb.or([eb('state', '=', sql.lit('queued')), eb.and([eb('state', '=', sql.lit('running')), eb('lease_until', '<=', now)])]),
    )
    .orderBy('created_at')
    .limit(1)
    .forUpdate()
    .skipLocked();
  return firstRow(
    db,
    chatDb
      .updateTable('account_exports')
      .set((eb) => ({ state: sql.lit('running'), lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', (eb) => eb.selectFrom(next.as('n')).select('n.id'))
      .returning(['id', 'account_id', 'created_at', 'attempts', 'lease_until']),
  );
}

/** Marks a claimed export done, only while this claim's lease is the row's: a worker that lost it changes nothing. */
export async function finishExport(db: Runner, done: { id: string; leaseUntil: Date; at: Date; size: number }): Promise<boolean> {
  const n = await affected(
    db,
    chatDb
      .updateTable('account_exports')
      .set({ state: 'done', completed_at: done.at, size: done.size, lease_until: null })
      .where('id', '=', done.id)
      .where('state', '=', sql.lit('running'))
      .where('lease_until', '=', done.leaseUntil),
  );
  return n > 0;
}

/** Marks a claimed export failed (under the same condition as finishExport). */
export async function failExport(db: Runner, failed: { id: string; leaseUntil: Date; error: string }): Promise<boolean> {
  const n = await affected(
    db,
    chatDb
      .updateTable('account_exports')
      .set({ state: 'failed', error: failed.error, lease_until: null })
      .where('id', '=', failed.id)
      .where('state', '=', sql.lit('running'))
      .where('lease_until', '=', failed.leaseUntil),
  );
  return n > 0;
}

/** Exports started before the cutoff, oldest first: their archives are removed before their rows. */
export async function exportsBefore(db: Runner, cutoff: Date, limit: number) {
  return rows(db, chatDb.selectFrom('account_exports').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(limit));
}

/** Deletes these export rows; the number deleted. */
export async function deleteExports(db: Runner, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return affected(db, chatDb.deleteFrom('account_exports').where('id', 'in', ids));
}

export const examples: QueryExamples = {
  insertExport: (db) => insertExport(db, { id: example.id, accountId: example.otherId, at: example.at }),
  exportOf: (db) => exportOf(db, example.id, example.otherId),
  claimExport: (db) => claimExport(db, example.at, example.at),
  finishExport: (db) => finishExport(db, { id: example.id, leaseUntil: example.at, at: example.at, size: 1 }),
  failExport: (db) => failExport(db, { id: example.id, leaseUntil: example.at, error: example.text }),
  exportsBefore: (db) => exportsBefore(db, example.at, 100),
  deleteExports: (db) => deleteExports(db, [example.id]),
};
