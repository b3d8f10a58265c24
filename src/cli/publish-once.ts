// One message on a Redis channel from a command-line tool, through the platform's own connection factory (so a
// cluster URL works too); a Redis that does not answer within two seconds makes it fail instead of hanging.
import { connectRedis } from '../platform/redis.js';

const waitMs = 2_000;

export async function publishOnce(redisUrl: string, channel: string, message: string, tool: string): Promise<void> {
  const redis = connectRedis(redisUrl, tool, { failFast: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.publish(channel, message),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${waitMs} ms`)), waitMs))),
    ]);
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
