// Redis command latency per connection, from the command being issued to its reply (time spent in an automatic
// pipeline included: the caller waits for it too).
import { Histogram } from 'prom-client';
import type { Cluster, Redis } from 'ioredis';
import { metricsRegistry } from './registry.js';

const commandDuration = new Histogram({
  name: 'platform_redis_command_duration_seconds',
  help: 'Time of a Redis command on a non-blocking connection, by connection name',
  labelNames: ['connection'] as const,
  buckets: [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
  registers: [metricsRegistry],
});

type SendCommand = Redis['sendCommand'];

/** Times the commands of one connection (ioredis hands every command, pipelined ones too, to sendCommand). */
export function instrumentRedis(redis: Redis | Cluster, connection: string): void {
  const timer = commandDuration.labels({ connection });
  redis.sendCommand = function timedSend(this: Redis | Cluster, ...args: Parameters<SendCommand>) {
    const start = performance.now();
    const end = () => timer.observe((performance.now() - start) / 1000);
    args[0].promise.then(end, end);
    // The class's method, looked up on each call like the instance's own would be.
    return (Object.getPrototypeOf(this) as Redis).sendCommand.apply(this as Redis, args);
  } as SendCommand;
}
