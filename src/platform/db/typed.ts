// Typed queries: Kysely as a compiler only. A feature builds its statement against the tables its MikroORM entities
// declare (TablesOf), so column names and row types come from the entities and a renamed column fails the build; the
// compiled text ($1, $2, ...) and values run on the one node-postgres pool or on the transaction's client, like every
// other statement, so events written in the same transaction stay in it and hot statements can stay named prepared
// ones. The compiler never connects (DummyDriver): there is no second pool. Measured in test/bench/typed-queries.ts
// (docs/adr/0119-typed-queries-over-entities.md).
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type CompiledQuery,
} from 'kysely';
import type { InferKyselyDB } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { prepared } from './prepared.js';
import { noteEventsWritten } from './sql.js';

/** The tables of these entities as Kysely sees them: table and column names as the entities map them. */
export type TablesOf<Entities extends { name: string }> = InferKyselyDB<Entities>;

/** What a typed query runs on: the pool, or a client inside a transaction. */
export type Runner = Pick<pg.Pool, 'query'>;

/** A builder of statements over the given tables; it compiles, it never executes. */
export function typedQueries<DB>(): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

const outboxInsert = 'insert into "outbox"';

async function run<R>(db: Runner, compiled: CompiledQuery<R>, named: boolean) {
  const result = await (named
    ? db.query(prepared(compiled.sql, [...compiled.parameters]))
    : db.query(compiled.sql, [...compiled.parameters]));
  // A statement that wrote events makes its commit ask for a drain (sql.ts).
  if (compiled.sql.includes(outboxInsert)) noteEventsWritten(db);
  return result;
}

/** Every row of the statement (its `returning` rows for a write). */
export async function rows<R>(db: Runner, query: Compilable<R>): Promise<R[]> {
  return (await run(db, query.compile(), false)).rows as R[];
}

/** The first row, or undefined when there is none. */
export async function firstRow<R>(db: Runner, query: Compilable<R>): Promise<R | undefined> {
  return (await rows(db, query))[0];
}

/** How many rows the statement wrote (or selected). */
export async function affected(db: Runner, query: Compilable<unknown>): Promise<number> {
  return (await run(db, query.compile(), false)).rowCount ?? 0;
}

/**
 * For hot statements: runs as a named prepared statement (prepared.ts), so each connection parses and plans the text
 * once. Only for statements whose shape does not depend on values (no `in` over a list of varying length).
 */
export async function hotRows<R>(db: Runner, query: Compilable<R>): Promise<R[]> {
  return (await run(db, query.compile(), true)).rows as R[];
}

const untyped = typedQueries<object>();

/** A transaction-scoped advisory lock on a text key: writers of the same key run one after another. */
export async function lockKey(db: Runner, key: string): Promise<void> {
  await run(db, sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.compile(untyped), false);
}
