// ioredis starts a command's REDIS_COMMAND_TIMEOUT_MS timer when it writes the command. On a connection with
// automatic pipelining, a command issued while the previous pipeline is still unanswered is written only after that
// pipeline settles: with Redis frozen, it is written when the one before it times out and then waits a whole time-out
// of its own, so a request would answer 503 after twice the setting (or later, behind more pipelines).
import { dependencyTimeouts } from './dependency-timeouts.js';

/** The reply, or the time-out error ioredis gives (answered 503), REDIS_COMMAND_TIMEOUT_MS after the call at most. */
export function withinCommandTimeout<T>(reply: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Command timed out')), dependencyTimeouts().redisCommandTimeoutMs);
    timer.unref();
  });
  // The command may still fail after the deadline has answered: that failure has no one left to tell.
  reply.catch(() => undefined);
  return Promise.race([reply, deadline]).finally(() => clearTimeout(timer));
}
