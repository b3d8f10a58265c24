import type { Config } from '../../platform/config/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Orm } from '../../platform/db/orm.js';
import type { SqlPool } from '../../platform/db/sql.js';
import type { ReadRouter } from '../../platform/db/read-router.js';
import type { Queues } from '../../platform/queues.js';
import type { AccountCache } from '../../core/auth/account-cache.js';
import type { VerifyKeyCache } from '../../core/auth/verify-key-cache.js';
import type { GateKeyCache } from '../../platform/gate-key-cache.js';

/** What chat services need from the platform; built once per process. */
export interface ChatDeps {
  orm: Orm;
  sql: SqlPool;
  /** Routes the read-only operations to replicas (readPool); absent without DATABASE_READ_URLS. */
  reads?: ReadRouter | undefined;
  clock: Clock;
  queues: Queues;
  verifyKeys: VerifyKeyCache;
  /** Account status per node; status changes must invalidate it (AccountService.setStatus). */
  accounts: AccountCache;
  /** The key gates' cache of each key's workspace plan, emptied on every node after a plan change. */
  gateKeys?: Pick<GateKeyCache, 'invalidate'>;
  config: Pick<
    Config,
    | 'inlineMembersMax'
    | 'platformModule'
    | 'messageEditWindowSeconds'
    | 'uploadMaxBytes'
    | 'uploadAllowedTypes'
    | 'uploadSessionTtlSeconds'
    | 'mediaPublicUrl'
    | 'chatPublicUrl'
  >;
}
