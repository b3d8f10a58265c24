// How a query module shows the SQL it sends. Each module (queries.ts, or name-queries.ts where a feature keeps
// several) exports `examples`: for every function it exports, a call of it with example inputs. The snapshot test
// (test/architecture/sql-snapshots.test.ts) makes each call on a recorder that answers no rows and writes the
// statements it received, formatted, into the module's .sql file beside it; a change of SQL then shows in review, and
// `make snapshots` rewrites the files (docs/adr/0153-query-modules-and-sql-snapshots.md).
import type { SqlClient, SqlPool } from './sql.js';

/** What an example runs its statements on: it stands for a pool and for a transaction's client. */
export type Recorder = SqlClient & SqlPool;

/**
 * One call per exported function, by its name (the snapshot test fails on an export without one); a fragment (a
 * builder that is not run) is returned to be compiled.
 */
export type QueryExamples = Record<string, (db: Recorder) => unknown>;

/** Values the examples pass where any value of the type does: the SQL text does not depend on them. */
export const example = {
  id: '00000000-0000-4000-8000-000000000001',
  otherId: '00000000-0000-4000-8000-000000000002',
  at: new Date('2026-01-01T00:00:00.000Z'),
  text: 'text',
} as const;
