import type { Config } from '../config.js';
import type { Clock } from '../platform/clock.js';
import type { Orm } from '../platform/db/orm.js';
import type { SqlPool } from '../platform/db/sql.js';

/** What partner services need from the platform; built once per process. */
export interface PartnerDeps {
  orm: Orm;
  sql: SqlPool;
  clock: Clock;
  config: Pick<Config, 'platformModule'>;
}
