import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { EntityManager, Options } from '@mikro-orm/postgresql';
import { migrations } from './migrations/index.js';
import { postgresTimeoutOptions } from '../dependency-timeouts.js';

export type { EntityManager };
export type Orm = MikroORM;

export interface OrmOptions {
  databaseUrl: string;
  poolMax?: number;
  debug?: boolean;
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
    pool: { min: 0, max: options.poolMax ?? 10 },
    // The same bounded waits as the hand-written SQL pool (sql.ts), as start-up options of every connection.
    driverOptions: postgresTimeoutOptions(),
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
