import type { SqlPool } from './db/sql.js';
import { ping } from './db/server-state.js';
import type { Redis } from './redis.js';

export interface Readiness {
  ready: boolean;
  checks: { database: 'ok' | 'fail'; redis: 'ok' | 'fail' };
}

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'fail'> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
    return 'ok';
  } catch {
    return 'fail';
  }
}

/** Database and Redis reachable: what /readyz reports on every listener. */
export async function checkReadiness(sql: SqlPool, redis: Redis): Promise<Readiness> {
  const [database, redisState] = await Promise.all([probe(() => ping(sql)), probe(() => redis.ping())]);
  return { ready: database === 'ok' && redisState === 'ok', checks: { database, redis: redisState } };
}
