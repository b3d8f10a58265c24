// The node-postgres pool every statement runs on, and its transactions. The data-access rule (docs/adr/0119): the
// MikroORM entities are the schema (with the migrations and the schema check); statements are typed queries over those
// entities, compiled by Kysely and run here (typed.ts: rows, firstRow, affected; hotRows as named prepared statements),
// so a write and its outbox rows share one transaction. Folders not yet converted still send hand-written SQL through
// `.query(`; test/architecture/raw-sql.test.ts holds their count per folder to a budget that only falls.
import pg from 'pg';
import { isClientReadTimeout, postgresTimeoutOptions } from '../dependency-timeouts.js';

export type SqlPool = pg.Pool;
export type SqlClient = pg.PoolClient;

// timestamptz stays a Date, bigint (seq, counts) becomes a JS number: message sequences stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createSqlPool(databaseUrl: string, max = 20): SqlPool {
  // A database that does not answer (host gone, network cut, server frozen) fails the request with 503 after the
  // configured waits instead of holding it until the operating system gives up (dependency-timeouts.ts).
  const pool = new pg.Pool({ connectionString: databaseUrl, max, ...postgresTimeoutOptions() });
  // An idle client whose server connection ends (database restart, shutdown) emits 'error' on the pool;
  // unhandled, that would crash the process. The pool drops the client and the next query reconnects.
  pool.on('error', () => undefined);
  // A checked-out client (between the statements of a transaction, or a relay waiting on Redis) has no pool listener:
  // its connection ending must fail its next statement, not crash the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export async function inTransaction<T>(pool: SqlPool, work: (client: SqlClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let result: T;
  try {
    await client.query('begin');
    result = await work(client);
    await client.query('commit');
  } catch (err) {
    // A connection whose server stopped answering would hold the rollback for another time-out: it is closed instead
    // (which rolls the transaction back on the server).
    if (isClientReadTimeout(err)) {
      client.release(err as Error);
      throw err;
    }
    await client.query('rollback').catch(() => undefined);
    client.release();
    throw err;
  }
  client.release();
  return result;
}
