// Typing and presence notices: published over Redis pub/sub to every node, which hands them to the sessions of the
// recipients it holds. Unlike events (delivery.ts) they have no seq, no outbox row and no log: a notice that finds
// no session is gone, which is what a typing indicator or a presence change wants.
import type { Redis } from '../../platform/redis.js';

export const ephemeralChannel = 'realtime:ephemeral';

export type EphemeralTopic = 'typing' | 'presence';

export interface EphemeralNotice {
  topic: EphemeralTopic;
  createdAt: string;
  payload: Record<string, unknown>;
  /** Recipient account ids. */
  to: string[];
}

/** Recipients per message, as for deliveries: a notice to many accounts goes out as several bounded messages. */
const recipientsPerMessage = 1_000;

export async function publishEphemeral(redis: Redis, notice: EphemeralNotice): Promise<void> {
  if (notice.to.length === 0) return;
  const pipeline = redis.pipeline();
  for (let i = 0; i < notice.to.length; i += recipientsPerMessage) {
    pipeline.publish(ephemeralChannel, JSON.stringify({ ...notice, to: notice.to.slice(i, i + recipientsPerMessage) }));
  }
  await pipeline.exec();
}

export function parseEphemeral(message: string): EphemeralNotice | null {
  try {
    const n = JSON.parse(message) as EphemeralNotice;
    return (n.topic === 'typing' || n.topic === 'presence') && Array.isArray(n.to) && typeof n.payload === 'object' ? n : null;
  } catch {
    return null;
  }
}

/** The MESSAGE body on /user/queue/ephemeral: the notice without its recipients. */
export function ephemeralBody(n: EphemeralNotice): string {
  return JSON.stringify({ topic: n.topic, createdAt: n.createdAt, payload: n.payload });
}
