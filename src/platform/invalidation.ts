// Cross-node cache invalidation over Redis pub/sub. A node trusts its cache only while its subscription is live:
// messages published while the subscriber is disconnected are lost, so until it has subscribed again the cache is
// bypassed, and once it has, everything cached before is dropped.
import { randomUUID } from 'node:crypto';
import { isCluster, type Redis } from './redis.js';
import type { Cluster } from 'ioredis';

/** How long publish waits by default for every subscribed node to confirm it dropped the entry. */
const defaultAckTimeoutMs = 1_000;

interface PendingAck {
  acked: number;
  /** The number of subscribers Redis delivered to; unknown until PUBLISH answers. */
  expected: number | null;
  resolve: () => void;
}

export interface InvalidationListener {
  /** One entry changed on some node. */
  drop(key: string): void;
  /** Invalidations may have been missed: forget everything. */
  dropAll(): void;
}

export class InvalidationChannel {
  private live = false;
  private readonly pending = new Map<string, PendingAck>();
  private readonly ackName: string;

  /** ackTimeoutMs: the bound on publish's wait for confirmations (a node that is slow to confirm only delays it). */
  constructor(
    private readonly publisher: Redis,
    readonly name: string,
    private readonly ackTimeoutMs = defaultAckTimeoutMs,
  ) {
    this.ackName = `${name}:ack`;
  }

  /** True while invalidations from other nodes are being received. */
  get isLive(): boolean {
    return this.live;
  }

  /** Subscribes, and keeps the subscription's state across reconnects; returns the unsubscribe. */
  async listen(subscriber: Redis, listener: InvalidationListener): Promise<() => Promise<void>> {
    // A message is "<nonce> <key>"; after dropping the entry each node confirms on the ack channel, so that the
    // publisher can answer only once every node forgot the entry.
    const onMessage = (channel: string, message: string) => {
      if (channel === this.name) {
        listener.drop(invalidatedKey(message));
        confirmInvalidation(this.publisher, channel, message);
      } else if (channel === this.ackName) {
        const pending = this.pending.get(message);
        if (!pending) return;
        pending.acked += 1;
        if (pending.expected !== null && pending.acked >= pending.expected) pending.resolve();
      }
    };
    const onDown = () => {
      this.live = false;
    };
    // ioredis resubscribes by itself on reconnect; subscribing again here tells when that has happened.
    const onReady = () => {
      subscriber
        .subscribe(this.name, this.ackName)
        .then(() => {
          listener.dropAll();
          this.live = true;
        })
        .catch(onDown);
    };
    subscriber.on('message', onMessage);
    subscriber.on('close', onDown);
    subscriber.on('ready', onReady);
    await subscriber.subscribe(this.name, this.ackName);
    listener.dropAll();
    this.live = true;
    return async () => {
      this.live = false;
      subscriber.off('message', onMessage);
      subscriber.off('close', onDown);
      subscriber.off('ready', onReady);
      await subscriber.unsubscribe(this.name, this.ackName);
    };
  }

  /**
   * Tells every node (this one included, through its own subscription) that key changed, and resolves once every
   * node that received the message confirmed it dropped the entry (or after a bounded wait), so that the very next
   * request on any node sees the change.
   */
  async publish(key: string): Promise<void> {
    const nonce = randomUUID();
    let resolve!: () => void;
    const confirmed = new Promise<void>((r) => (resolve = r));
    const pending: PendingAck = { acked: 0, expected: null, resolve };
    this.pending.set(nonce, pending);
    let timer: NodeJS.Timeout | undefined;
    try {
      const [receivers, subscribed] = await Promise.all([
        this.publisher.publish(this.name, `${nonce} ${key}`),
        isCluster(this.publisher) ? subscribersAcrossCluster(this.publisher, this.name) : undefined,
      ]);
      pending.expected = subscribed ?? receivers;
      if (pending.acked >= pending.expected) return;
      await Promise.race([confirmed, new Promise<void>((r) => (timer = setTimeout(r, this.ackTimeoutMs)))]);
    } finally {
      if (timer) clearTimeout(timer);
      this.pending.delete(nonce);
    }
  }
}

/**
 * A cluster node's PUBLISH reply counts only the subscribers connected to that node, though the message reaches
 * those of every node (over the cluster bus): the receivers are counted on every node instead. A subscriber that
 * comes or goes meanwhile only makes the publisher wait out its bounded wait.
 */
async function subscribersAcrossCluster(cluster: Cluster, channel: string): Promise<number> {
  const counts = await Promise.all(
    cluster.nodes('all').map(async (node) => {
      const reply = (await node.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
      return Number(reply[1]);
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** The key named by an invalidation message ("<nonce> <key>"). */
export function invalidatedKey(message: string): string {
  return message.slice(message.indexOf(' ') + 1);
}

/**
 * Confirms an invalidation message to its publisher. Every subscriber of the channel counts as a receiver, so a
 * component that subscribes to a channel by itself (not through InvalidationChannel) must confirm too.
 */
export function confirmInvalidation(publisher: Redis, channel: string, message: string): void {
  const space = message.indexOf(' ');
  if (space > 0) publisher.publish(`${channel}:ack`, message.slice(0, space)).catch(() => undefined);
}
