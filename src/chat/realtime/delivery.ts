// The Redis pub/sub message that tells every node which accounts an event reached and at which seq. Published
// after the relay's commit, so a node that reads the log on hearing it always finds the rows.
import type { Redis } from '../../platform/redis.js';
import type { Delivery } from './log.js';

export const deliveryChannel = 'realtime:deliveries';

/** Recipients per message: a broadcast to many accounts goes out as several messages of bounded size. */
const recipientsPerMessage = 1_000;

export async function publishDeliveries(redis: Redis, deliveries: Delivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const pipeline = redis.pipeline();
  for (const d of deliveries) {
    for (let i = 0; i < d.to.length; i += recipientsPerMessage) {
      const part: Delivery = {
        id: d.id,
        topic: d.topic,
        createdAt: d.createdAt,
        payload: d.payload,
        to: d.to.slice(i, i + recipientsPerMessage),
      };
      if (d.traceContext) part.traceContext = d.traceContext;
      pipeline.publish(deliveryChannel, JSON.stringify(part));
    }
  }
  await pipeline.exec();
}

export function parseDelivery(message: string): Delivery | null {
  try {
    const d = JSON.parse(message) as Delivery;
    return typeof d.id === 'string' && typeof d.topic === 'string' && Array.isArray(d.to) ? d : null;
  } catch {
    return null;
  }
}
