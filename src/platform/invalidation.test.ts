// A node trusts its caches only while its invalidation subscription is live: a dropped connection loses messages,
// so the channel reports "not live" until it has subscribed again, and then everything cached is dropped.
import { EventEmitter } from 'node:events';
import { InvalidationChannel } from './invalidation.js';
import type { Redis } from './redis.js';

class FakeSubscriber extends EventEmitter {
  subscribed: string[] = [];
  async subscribe(channel: string) {
    this.subscribed.push(channel);
    return 1;
  }
  async unsubscribe() {
    return 0;
  }
}

const flush = () => new Promise((r) => setImmediate(r));

test('live after subscribing; not live from a disconnect until the resubscription, which drops everything', async () => {
  const published: Array<[string, string]> = [];
  const publisher = { publish: async (c: string, m: string) => published.push([c, m]) } as unknown as Redis;
  const channel = new InvalidationChannel(publisher, 'test:channel');
  const subscriber = new FakeSubscriber();
  const dropped: string[] = [];
  let dropAlls = 0;
  expect(channel.isLive).toBe(false);
  const stop = await channel.listen(subscriber as unknown as Redis, { drop: (k) => dropped.push(k), dropAll: () => (dropAlls += 1) });
  expect(channel.isLive).toBe(true);
  expect(dropAlls).toBe(1);

  subscriber.emit('message', 'test:channel', 'k1');
  subscriber.emit('message', 'other', 'k2');
  expect(dropped).toEqual(['k1']);

  subscriber.emit('close');
  expect(channel.isLive).toBe(false);
  subscriber.emit('ready');
  await flush();
  expect(channel.isLive).toBe(true);
  expect(dropAlls).toBe(2);
  expect(subscriber.subscribed).toEqual(['test:channel', 'test:channel']);

  await channel.publish('k3');
  // each message carries a nonce that the receiving nodes confirm on the ack channel
  expect(published).toEqual([['test:channel', expect.stringMatching(/^[0-9a-f-]{36} k3$/)]]);

  await stop();
  expect(channel.isLive).toBe(false);
  subscriber.emit('message', 'test:channel', 'k4');
  expect(dropped).toEqual(['k1']);
});
