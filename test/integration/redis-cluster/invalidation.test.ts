// Cross-node cache invalidation on a Redis Cluster. A subscriber of ioredis' Cluster client sits on one node of the
// cluster, and a node's PUBLISH reply counts only the subscribers connected to it, though the message reaches all of
// them: a publish still resolves only once every subscribed node, wherever it is connected, has dropped the entry.
import { InvalidationChannel } from '../../../src/platform/invalidation.js';
import { connectRedis, type Redis } from '../../../src/platform/redis.js';
import { clusterInfra, type ClusterInfra } from './support.js';

let infra: ClusterInfra;
const connections: Redis[] = [];

beforeAll(async () => {
  infra = await clusterInfra();
});
afterAll(async () => {
  for (const c of connections) c.disconnect();
  await infra?.stop();
});

interface TestNode {
  channel: InvalidationChannel;
  dropped: Set<string>;
  wholesale: { count: number };
}

/** Whether a node would still serve its cached entry: live, the key not dropped, nothing dropped wholesale since. */
function servesCached(node: TestNode, key: string, wholesaleBefore: number): boolean {
  return node.channel.isLive && !node.dropped.has(key) && node.wholesale.count === wholesaleBefore;
}

test('after publish resolves, the entry is gone on every one of six nodes', async () => {
  const nodes = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const publisher = connectRedis(infra.redisUrl, `publisher-${i}`);
      const subscriber = connectRedis(infra.redisUrl, `subscriber-${i}`, { blocking: true });
      connections.push(publisher, subscriber);
      // A generous bound, as every wait of the tests: publish resolves on the confirmations, which is what is tested.
      const channel = new InvalidationChannel(publisher, 'test:cache:invalidate', 15_000);
      // The entry is gone on a node that dropped it, dropped everything (after resubscribing) or is not live (its
      // cache is bypassed until it has resubscribed): a subscriber that reconnects on a loaded machine is the last two.
      const dropped = new Set<string>();
      const wholesale = { count: 0 };
      await channel.listen(subscriber, { drop: (key) => dropped.add(key), dropAll: () => (wholesale.count += 1) });
      expect(channel.isLive).toBe(true);
      return { channel, dropped, wholesale };
    }),
  );
  for (let round = 0; round < 10; round++) {
    const key = `entry-${round}`;
    const before = nodes.map((n) => n.wholesale.count);
    await nodes[round % nodes.length]!.channel.publish(key);
    const stillCached = nodes.filter((n, i) => servesCached(n, key, before[i]!));
    expect(stillCached).toHaveLength(0);
  }
});
