// Cross-node cache invalidation over Redis pub/sub. A node trusts its cache only while its subscription is live:
// messages published while the subscriber is disconnected are lost, so until it has subscribed again the cache is
// bypassed, and once it has, everything cached before is dropped.
import type { Redis } from './redis.js';

export interface InvalidationListener {
  /** One entry changed on some node. */
  drop(key: string): void;
  /** Invalidations may have been missed: forget everything. */
  dropAll(): void;
}

export class InvalidationChannel {
  private live = false;

  constructor(private readonly publisher: Redis, readonly name: string) {}

  /** True while invalidations from other nodes are being received. */
  get isLive(): boolean {
    return this.live;
  }

  /** Subscribes, and keeps the subscription's state across reconnects; returns the unsubscribe. */
  async listen(subscriber: Redis, listener: InvalidationListener): Promise<() => Promise<void>> {
    const onMessage = (channel: string, message: string) => {
      if (channel === this.name) listener.drop(message);
    };
    const onDown = () => {
      this.live = false;
    };
    // ioredis resubscribes by itself on reconnect; subscribing again here tells when that has happened.
    const onReady = () => {
      subscriber
        .subscribe(this.name)
        .then(() => {
          listener.dropAll();
          this.live = true;
        })
        .catch(onDown);
    };
    subscriber.on('message', onMessage);
    subscriber.on('close', onDown);
    subscriber.on('ready', onReady);
    await subscriber.subscribe(this.name);
    listener.dropAll();
    this.live = true;
    return async () => {
      this.live = false;
      subscriber.off('message', onMessage);
      subscriber.off('close', onDown);
      subscriber.off('ready', onReady);
      await subscriber.unsubscribe(this.name);
    };
  }

  /** Tells every node (this one included, through its own subscription) that key changed. */
  async publish(key: string): Promise<void> {
    await this.publisher.publish(this.name, key);
  }
}
