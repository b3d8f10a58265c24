// PostgreSQL or Redis unreachable (stopped, restarting, network cut): the request cannot be served now but may be
// retried, so it is answered 503 service_unavailable in the listener's envelope instead of 500.
import { AppError } from './app-error.js';

/** Node socket errors of a connection that could not be made or was lost. */
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01-57P03 (shutdown, crash, not yet accepting), 57014
 * (statement_timeout ran out) and 55P03 (lock_timeout ran out): the database did not serve the request in time.
 */
const sqlStatePattern = /^(08...|57P0[1-3]|57014|55P03)$/;

const messagePatterns = [
  // node-postgres
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection ended unexpectedly/i,
  // node-postgres' own query_timeout (a server that stopped answering)
  /^Query read timeout$/,
  // ioredis
  /Stream isn't writeable/i,
  /Connection is closed/i,
  /Reached the max retries per request limit/i,
  /^Command timed out$/,
];

function isUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (socketCodes.has(e.code) || sqlStatePattern.test(e.code))) return true;
  if (e.name === 'MaxRetriesPerRequestError' || e.name === 'ConnectionException') return true;
  if (typeof e.message === 'string' && messagePatterns.some((p) => p.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isUnavailable(x, depth + 1))) return true;
  return isUnavailable(e.cause, depth + 1);
}

/** How long a client should wait before retrying, in seconds. */
export const unavailableRetryAfterSeconds = 2;

export function dependencyUnavailable(err: unknown): AppError | undefined {
  if (!isUnavailable(err)) return undefined;
  return new AppError(503, 'service_unavailable', 'The service cannot reach its database or cache right now; retry shortly.', undefined, {
    'retry-after': String(unavailableRetryAfterSeconds),
  });
}
