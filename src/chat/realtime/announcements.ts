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
import type { SessionHost } from './session.js';
import type { SessionIndex } from './session-index.js';

export interface Announcements {
  /** The node's subscriber connection; disconnected when the gateway stops. */
  subscriber: Redis;
  /** Live subscriptions behind the log read it. */
  sweep(): Promise<void>;
}

export async function listenForAnnouncements(deps: GatewayDeps, index: SessionIndex, host: SessionHost): Promise<Announcements> {
  const { byAccount } = index;
  const deliver = (d: Delivery) => {
    let tail: string | undefined;
    for (const [accountId, seq] of d.to) {
      const sessions = byAccount.get(accountId);
      if (!sessions) continue;
      // The body differs per recipient only in its seq; the rest is serialised once.
      tail ??= `,"eventId":${JSON.stringify(d.id)},"topic":${JSON.stringify(d.topic)},"createdAt":${JSON.stringify(d.createdAt)},"payload":${JSON.stringify(d.payload)}}`;
      const rest = tail;
      for (const s of sessions) s.deliver(seq, () => `{"seq":${seq}${rest}`, d.topic, d.id);
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

  /** Live subscriptions behind the log (an announcement lost in Redis) read it. */
  const sweep = async () => {
    const ids = [...byAccount.keys()].filter((id) => [...byAccount.get(id)!].some((s) => s.hasLiveEvents));
    for (let i = 0; i < ids.length; i += 1000) {
      const seqs = await lastSeqsOf(deps.sql, ids.slice(i, i + 1000));
      for (const [id, seq] of seqs) for (const s of byAccount.get(id) ?? []) s.behind(seq);
    }
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
    sweep().catch((err: unknown) => host.onError(err, 'sweep'));
    Promise.all([...byAccount.keys()].map(recheck)).catch((err: unknown) => host.onError(err, 'account recheck'));
  });
  await subscriber.subscribe(deliveryChannel, ephemeralChannel, accountInvalidationChannel);
  subscribed = true;
  return { subscriber, sweep };
}
