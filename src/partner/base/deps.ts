import type { Config } from '../../platform/config/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Orm } from '../../platform/db/orm.js';
import type { SqlPool } from '../../platform/db/sql.js';
import type { ReadRouter } from '../../platform/db/read-router.js';
import type { GateKeyCache } from '../../platform/gate-key-cache.js';

/** What partner services need from the platform; built once per process. */
export interface PartnerDeps {
  orm: Orm;
  sql: SqlPool;
  /** Routes the read-only operations to replicas (readPool); absent without DATABASE_READ_URLS. */
  reads?: ReadRouter | undefined;
  clock: Clock;
  config: Pick<Config, 'platformModule' | 'partnerPublicUrl'>;
  /** Emptied on every node after a key is revoked or a workspace's plan changes (see GateKeyCache). */
  gateKeys?: Pick<GateKeyCache, 'invalidate'>;
}
