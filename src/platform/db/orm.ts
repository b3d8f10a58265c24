import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { EntityManager, EventSubscriber, Options } from '@mikro-orm/postgresql';
import { PostgresDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import { postgresTimeoutOptions } from '../dependency-timeouts.js';
import { eventsCommitted, type SqlPool } from './sql.js';

export type { EntityManager };
export type Orm = MikroORM;

export interface OrmOptions {
  databaseUrl: string;
  poolMax?: number;
  debug?: boolean;
  /**
   * The process's node-postgres pool (sql.ts): the ORM then runs on it instead of opening a pool of its own, so a
   * process has one pool to the primary. Without it (migrations alone, the schema check) the ORM opens its own.
   */
  pool?: SqlPool;
  /** The entities the features define (the composition root passes them); migrations need none. */
  entities?: NonNullable<Options['entities']>;
}

export async function openOrm(options: OrmOptions): Promise<Orm> {
  return MikroORM.init({
    clientUrl: options.databaseUrl,
    entities: options.entities ?? [],
    extensions: [Migrator],
    migrations: {
      migrationsList: migrations,
      transactional: true,
      allOrNothing: true,
      tableName: 'schema_migrations',
      silent: true,
      snapshot: false,
    },
    ...(options.pool
      ? { driverOptions: borrowed(options.pool), subscribers: [eventsCommittedOn(options.pool)] }
      : {
          pool: { min: 0, max: options.poolMax ?? 10 },
          // The same bounded waits as the process's pool (sql.ts), as start-up options of every connection.
          driverOptions: postgresTimeoutOptions(),
        }),
    debug: options.debug ?? false,
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
  });
}

/** Applies every pending committed migration; returns the names applied. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}

/**
 * The ORM's dialect over a pool the process owns. The ORM's close ends its dialect's pool: here that does nothing, the
 * process ends the pool once, after everything that uses it. Rows come through the pool's type parsers (timestamps
 * as Date), which the ORM's hydration takes as they are.
 */
function borrowed(pool: SqlPool): PostgresDialect {
  const lent: PostgresPool = {
    Client: pg.Client,
    options: pool.options,
    connect: () => pool.connect(),
    end: async () => undefined,
  };
  return new PostgresDialect({ pool: lent });
}

/** A transaction of the ORM that wrote events (appendOutbox) asks for a drain on its commit, as sql.ts's do. */
function eventsCommittedOn(pool: SqlPool): EventSubscriber {
  return { afterTransactionCommit: ({ transaction }) => transaction && eventsCommitted(transaction, pool) };
}
