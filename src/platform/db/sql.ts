// The node-postgres pool every statement runs on, and its transactions. The data-access rule (docs/adr/0119): the
// MikroORM entities are the schema (with the migrations and the schema check); statements are typed queries over those
// entities, compiled by Kysely and run here (typed.ts: rows, firstRow, affected; hotRows as named prepared statements),
// so a write and its outbox rows share one transaction. Only transaction and session control is written by hand, here
// (test/architecture/raw-sql.test.ts); the ORM runs on this pool too (docs/adr/0122).
import pg from 'pg';
import { isClientReadTimeout, postgresTimeoutOptions } from '../dependency-timeouts.js';

export type SqlPool = pg.Pool;
export type SqlClient = pg.PoolClient;

// timestamptz stays a Date, bigint (seq, counts) becomes a JS number: message sequences stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

// Events reach the relay after their commit, never before: whatever wrote outbox rows (typed.ts notes every statement
// that inserts into the outbox) makes its transaction owe a drain request, and the commit above pays it to the
// listener the process registered for the pool. A statement on the pool itself commits as it ends. Callers never ask
// for a drain themselves (docs/adr/0152-drain-requested-by-the-commit.md).
const drainListeners = new WeakMap<object, () => void>();
const poolOf = new WeakMap<object, SqlPool>();
const pendingEvents = new WeakSet<object>();

export function createSqlPool(databaseUrl: string, max = 20): SqlPool {
  // A database that does not answer (host gone, network cut, server frozen) fails the request with 503 after the
  // configured waits instead of holding it until the operating system gives up (dependency-timeouts.ts).
  const pool = new pg.Pool({ connectionString: databaseUrl, max, ...postgresTimeoutOptions() });
  // An idle client whose server connection ends (database restart, shutdown) emits 'error' on the pool;
  // unhandled, that would crash the process. The pool drops the client and the next query reconnects.
  pool.on('error', () => undefined);
  // A checked-out client (between the statements of a transaction, or a relay waiting on Redis) has no pool listener:
  // its connection ending must fail its next statement, not crash the process.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    poolOf.set(client, pool);
  });
  return pool;
}

/**
 * Takes a session-level advisory lock (held until unlockSession or the connection's end; numbers as they are, text
 * keys through hashtext) and, with `begin`, opens a transaction in the same round trip.
 */
export async function lockSession(client: SqlClient, key: number | string, options: { begin?: boolean } = {}): Promise<void> {
  await client.query(`select pg_advisory_lock(${lockKeySql(key)})${options.begin ? '; begin' : ''}`);
}

/**
 * The statement that carries a trace context on a connection (src/platform/tracing/pg.ts queues it ahead of a traced
 * statement); `value` '' clears it.
 */
export function traceContextStatement(value: string): { text: string; values: string[] } {
  return { text: "select set_config('platform.traceparent', $1, false)", values: [value] };
}

/** Lifts the statement and lock time-outs for the rest of this connection's session (not to be pooled again). */
export async function waitWithoutTimeouts(client: SqlClient): Promise<void> {
  await client.query('set statement_timeout = 0; set lock_timeout = 0');
}

/** Releases a session-level advisory lock taken with lockSession. */
export async function unlockSession(client: SqlClient, key: number | string): Promise<void> {
  await client.query(`select pg_advisory_unlock(${lockKeySql(key)})`);
}

/**
 * Commits, after the given statement in the same round trip when there is one. The statement must carry no
 * parameters (a typed statement whose values are literals): several statements in one round trip go as a simple query.
 */
export async function commitAfter(client: SqlClient, statement?: { sql: string; parameters: readonly unknown[] }): Promise<void> {
  if (statement && statement.parameters.length > 0) throw new Error('commitAfter takes a statement without parameters');
  await client.query(statement ? `${statement.sql}; commit` : 'commit');
  eventsCommitted(client);
}

export interface Savepoint {
  /** Keeps what was done since the savepoint. */
  release(): Promise<void>;
  /** Undoes what was done since the savepoint; the transaction goes on. */
  rollback(): Promise<void>;
}

/** Sets a savepoint in the client's transaction. Names are constants of the code, never input. */
export async function savepoint(client: SqlClient, name: string): Promise<Savepoint> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a savepoint name: ${name}`);
  await client.query(`savepoint ${name}`);
  return {
    release: async () => void (await client.query(`release savepoint ${name}`)),
    rollback: async () => void (await client.query(`rollback to savepoint ${name}`)),
  };
}

/**
 * Runs `work` inside the client's transaction with plans that take an index wherever one serves. For a statement that
 * probes a table once per row it inserts into that same table: planned while the table was nearly empty, a probe by
 * sequential scan would read every page the statement has added so far, for each row.
 */
export async function withIndexScans<T>(client: SqlClient, work: () => Promise<T>): Promise<T> {
  await client.query('set local enable_seqscan = off');
  const result = await work();
  await client.query('set local enable_seqscan to default');
  return result;
}

/** Rolls back, ignoring a failure (the connection may already be gone). */
export async function rollbackQuietly(client: SqlClient): Promise<void> {
  pendingEvents.delete(client);
  await client.query('rollback').catch(() => undefined);
}

// Lock keys are constants of the code, never input: a number is written as it is, text is quoted as a literal.
function lockKeySql(key: number | string): string {
  if (typeof key === 'number') {
    if (!Number.isSafeInteger(key)) throw new Error(`not a lock key: ${key}`);
    return String(key);
  }
  return `hashtext('${key.replaceAll("'", "''")}')`;
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
    await rollbackQuietly(client);
    client.release();
    throw err;
  }
  eventsCommitted(client);
  client.release();
  return result;
}

/** What the process does once a commit wrote events on this pool (ask the relay for a drain). */
export function onEventsCommitted(pool: SqlPool, listener: () => void): void {
  drainListeners.set(pool, listener);
}

/**
 * Events were written on `db`: on a pool's client (or an ORM transaction) they are owed until its commit; on the pool
 * they are committed already.
 */
export function noteEventsWritten(db: object): void {
  if (poolOf.has(db)) pendingEvents.add(db);
  else drainListeners.get(db)?.();
}

/** A transaction committed: if it wrote events, the pool's listener hears of it once. */
export function eventsCommitted(transaction: object, pool: SqlPool | undefined = poolOf.get(transaction)): void {
  if (!pendingEvents.delete(transaction) || !pool) return;
  drainListeners.get(pool)?.();
}

/** An ORM transaction wrote events (its commit is reported by the ORM, see orm.ts). */
export function noteEventsWrittenIn(transaction: object): void {
  pendingEvents.add(transaction);
}
