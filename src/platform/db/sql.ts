// A node-postgres pool for hand-written SQL on hot paths (send, scroll, room list), where the ORM's unit
// of work would only add cost. Entities and migrations stay with MikroORM.
import pg from 'pg';

export type SqlPool = pg.Pool;
export type SqlClient = pg.PoolClient;

// timestamptz stays a Date, bigint (seq, counts) becomes a JS number: message sequences stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createSqlPool(databaseUrl: string, max = 20): SqlPool {
  // A database that does not answer a connection attempt (host gone, network cut) fails the request after 10 s
  // (503) instead of holding it until the operating system gives up.
  const pool = new pg.Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 10_000 });
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
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
