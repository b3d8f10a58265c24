// The process itself: cluster workers, the shutdown bound, schema compilation, the time-outs of PostgreSQL, Redis
// and of the clients' requests.
import { availableParallelism } from 'node:os';
import { ConfigError, int, type Env } from './env.js';
import type { Config, SchemaCompilation } from './types.js';

const schemaCompilations: SchemaCompilation[] = ['startup', 'first-use'];

function schemaCompilation(env: Env): SchemaCompilation {
  const mode = env.SCHEMA_COMPILATION || 'startup';
  if (!schemaCompilations.includes(mode as SchemaCompilation)) {
    throw new ConfigError(`SCHEMA_COMPILATION must be one of ${schemaCompilations.join(', ')}, got "${mode}"`);
  }
  return mode as SchemaCompilation;
}

/** The process itself: cluster workers, the shutdown bound and the time-outs of calls to PostgreSQL and Redis. */
export function processSettings(env: Env) {
  return {
    workers: env.WORKERS === 'auto' ? availableParallelism() : int(env, 'WORKERS', 1, 1, 256),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 25_000, 1_000, 600_000),
    schemaCompilation: schemaCompilation(env),
    dependencyTimeouts: {
      databaseStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 4_000, 100, 600_000),
      databaseLockTimeoutMs: int(env, 'DATABASE_LOCK_TIMEOUT_MS', 2_000, 100, 600_000),
      databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
      redisCommandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 2_000, 100, 600_000),
    },
  };
}

/**
 * Without these a client that sends its body (or headers) a byte at a time holds a connection and a request slot for
 * as long as it likes. The headers must arrive within the whole request's time, as Node requires.
 */
export function httpTimeouts(env: Env): Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'> {
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000);
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  // Above the 60 s idle timeout of common load balancers, which must close first to avoid a race on reuse.
  const keepAliveTimeoutMs = int(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 100, 3_600_000);
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}
