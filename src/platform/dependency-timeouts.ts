// How long the platform waits on PostgreSQL and Redis before a request gives up with 503. A server that is frozen
// (stopped, swapped out, a network that drops packets without resetting) keeps its connections open and answers
// nothing, so neither a refused connection nor a closed socket ever tells the waiting request: only a time-out does.
// The settings are per process (every pool and connection made after start takes them); they travel in each
// connection's start-up options (PostgreSQL) or client options (Redis), so no statement or command costs a round trip
// more for them.

export interface DependencyTimeouts {
  /** PostgreSQL statement_timeout; the client gives up on its own one second later (a frozen server reports nothing). */
  databaseStatementTimeoutMs: number;
  /** PostgreSQL lock_timeout: a statement waiting this long for a row or table lock fails. */
  databaseLockTimeoutMs: number;
  /** Longest wait for a pooled connection, a new one or a free one. */
  databaseConnectTimeoutMs: number;
  /** Longest wait for a Redis reply on every connection but the blocking ones of queue workers. */
  redisCommandTimeoutMs: number;
}

export const defaultDependencyTimeouts: DependencyTimeouts = {
  databaseStatementTimeoutMs: 4_000,
  databaseLockTimeoutMs: 2_000,
  databaseConnectTimeoutMs: 5_000,
  redisCommandTimeoutMs: 2_000,
};

/** What the server needs to report a statement time-out before the client stops waiting for it. */
const reportGraceMs = 1_000;

let current: DependencyTimeouts = defaultDependencyTimeouts;

/** Set once at start, before any pool or Redis connection is made. */
export function installDependencyTimeouts(timeouts: DependencyTimeouts): void {
  current = timeouts;
}

export function dependencyTimeouts(): DependencyTimeouts {
  return current;
}

/** node-postgres pool options: server-side statement and lock time-outs (start-up parameters) and the client's own. */
export function postgresTimeoutOptions(t: DependencyTimeouts = current) {
  return {
    connectionTimeoutMillis: t.databaseConnectTimeoutMs,
    statement_timeout: t.databaseStatementTimeoutMs,
    lock_timeout: t.databaseLockTimeoutMs,
    query_timeout: t.databaseStatementTimeoutMs + reportGraceMs,
  };
}

/** The error node-postgres gives when its own query_timeout ran out: the connection still waits for the answer. */
export function isClientReadTimeout(err: unknown): boolean {
  return (err as { message?: unknown } | null)?.message === 'Query read timeout';
}
