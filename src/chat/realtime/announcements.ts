// What a node hears through Redis and does for the sessions it holds: delivery announcements (events to send),
// ephemeral notices (typing, presence) and account invalidations (sessions of an account no longer active end).
// A sweep reads the log for live subscriptions that missed an announcement.
import { accountInvalidationChannel } from '../../core/auth/account-cache.js';
import { confirmInvalidation, invalidatedKey } from '../../platform/invalidation.js';
import { connectRedis, type Redis } from '../../platform/redis.js';
import { inConsumerSpan } from '../../platform/tracing/consumer.js';
import { ephemeralBody, ephemeralChannel, parseEphemeral } from '../presence/ephemeral.js';
import { deliveryChannel, parseDelivery } from './delivery.js';
import type { GatewayDeps } from './gateway-deps.js';
import { lastSeqsOf, type Delivery } from './log.js';
import type { EventFrameParts } from './frame.js';
import type { SessionHost } from './session.js';
import { eventParts } from './session-frames.js';
import type { SessionIndex } from './session-index.js';

export interface Announcements {
  /** The node's subscriber connection; disconnected when the gateway stops. */
  subscriber: Redis;
  /** Live subscriptions behind the log read it. */
  sweep(now?: boolean): Promise<void>;
}

export async function listenForAnnouncements(deps: GatewayDeps, index: SessionIndex, host: SessionHost): Promise<Announcements> {
  const { byAccount } = index;
  const deliver = (d: Delivery) => {
    let parts: EventFrameParts | undefined;
    for (const [accountId, seq] of d.to) {
      const sessions = byAccount.get(accountId);
      if (!sessions) continue;
      // The frame differs per recipient only in its seq and message id; the rest is serialised once.
      parts ??= eventParts(d.id, d.topic, d.createdAt, d.payload);
      for (const s of sessions) s.deliver(seq, parts);
    }
  };

  /** An account changed on some node: its sessions here end when it may no longer use the service. */
  const recheck = async (accountId: string) => {
    const sessions = byAccount.get(accountId);
    if (!sessions || sessions.size === 0) return;
    const status = await host.statusOf(accountId);
    if (status === 'ACTIVE') return;
    for (const s of [...(byAccount.get(accountId) ?? [])]) s.kick(status ?? 'DEACTIVATED');
  };

  /**
   * Live subscriptions behind the log (an announcement lost in Redis) read it. A session is behind only by what the
   * previous sweep had read: an event committed a moment ago may still be on its way through Redis, and taking it
   * for lost would send every recipient of a broadcast to the log at once. After the subscriber reconnected,
   * whatever was announced meanwhile is lost for sure: that sweep goes by what it reads (`now`).
   */
  let previous = new Map<string, number>();
  const sweep = async (now = false) => {
    const ids = [...byAccount.keys()].filter((id) => [...byAccount.get(id)!].some((s) => s.hasLiveEvents));
    const current = new Map<string, number>();
    for (let i = 0; i < ids.length; i += 1000) {
      const seqs = await lastSeqsOf(deps.sql, ids.slice(i, i + 1000));
      for (const [id, seq] of seqs) {
        current.set(id, seq);
        const before = now ? seq : previous.get(id);
        if (before !== undefined) for (const s of byAccount.get(id) ?? []) s.behind(before);
      }
    }
    previous = current;
  };

  const subscriber: Redis = connectRedis(deps.redisUrl, 'realtime', { blocking: true });
  subscriber.on('error', () => undefined);
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === deliveryChannel) {
      const d = parseDelivery(message);
      if (d)
        inConsumerSpan(
          'realtime.deliver',
          [d.traceContext],
          { 'messaging.destination.name': d.topic, 'realtime.recipients': d.to.length },
          () => deliver(d),
        );
    } else if (channel === ephemeralChannel) {
      const n = parseEphemeral(message);
      if (!n) return;
      let body: string | undefined;
      for (const accountId of n.to)
        for (const s of byAccount.get(accountId) ?? []) s.deliverEphemeral(n.topic, (body ??= ephemeralBody(n)));
    } else if (channel === accountInvalidationChannel) {
      confirmInvalidation(deps.publisher, channel, message);
      recheck(invalidatedKey(message)).catch((err: unknown) => host.onError(err, 'account recheck'));
    }
  });
  let subscribed = false;
  // After a reconnect of the subscriber, announcements and invalidations may have been missed.
  subscriber.on('ready', () => {
    if (!subscribed) return;
    sweep(true).catch((err: unknown) => host.onError(err, 'sweep'));
    Promise.all([...byAccount.keys()].map(recheck)).catch((err: unknown) => host.onError(err, 'account recheck'));
  });
  await subscriber.subscribe(deliveryChannel, ephemeralChannel, accountInvalidationChannel);
  subscribed = true;
  return { subscriber, sweep };
}
