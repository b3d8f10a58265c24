// What the erasure job needs of the platform; the maintenance worker's node builds it (src/app/workers.ts).
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import type { Redis } from '../../platform/redis.js';
import type { AccountCache } from '../../core/auth/account-cache.js';
import type { MediaStore } from '../../core/media/store.js';

export interface ErasureDeps {
  sql: SqlPool;
  clock: Clock;
  /** Presence lives here (src/chat/presence/store.ts). */
  redis: Redis;
  media: Pick<MediaStore, 'remove'>;
  /** Every node drops the erased account's cached state. */
  accounts: Pick<AccountCache, 'invalidate'>;
}
