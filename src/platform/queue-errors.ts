// BullMQ queues and workers re-emit every error of their Redis connections; one that nothing listens to is printed
// raw to stderr with its stack, once per reconnection attempt of every connection while Redis is away.
import type { Logger } from './logger.js';

interface ErrorEmitter {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

const connectionErrorCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/** An error that says only that Redis cannot be reached: /readyz and the jobs' failures already tell it. */
export function isRedisConnectionError(err: Error & { code?: unknown }): boolean {
  return (typeof err.code === 'string' && connectionErrorCodes.has(err.code)) || /Connection is closed|connect ETIMEDOUT/.test(err.message);
}

/** Logs a queue's or worker's own errors once each; the errors of an unreachable Redis are left to /readyz. */
export function reportQueueErrors(log: Logger, name: string, ...emitters: ErrorEmitter[]): void {
  for (const emitter of emitters) {
    emitter.on('error', (err) => {
      if (!isRedisConnectionError(err)) log.warn({ err, queue: name }, 'queue error');
    });
  }
}
