import type { Config } from '../config.js';
import type { Clock } from '../platform/clock.js';
import type { Orm } from '../platform/db/orm.js';
import type { SqlPool } from '../platform/db/sql.js';

/** What workspace services need from the platform; built once per process. */
export interface WorkspaceDeps {
  orm: Orm;
  sql: SqlPool;
  clock: Clock;
  config: Pick<Config, 'platformModule'>;
}
