// Outbox topics that no chat client receives: the relay's consumers read them (svc.event feeds the webhook delivery
// engine; the webhook.* changes reach no account, their audience is empty, and stay in the outbox for inspection).
// They never share a name with a chat topic (test/integration/event-topics.test.ts).
import type { Queryable } from '../../platform/db/queryable.js';
import type { RawBuilder } from 'kysely';
import { outboxTopic, writeOutbox } from '../../platform/outbox-writer.js';

export const internalTopics = [
  'svc.event',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.paused',
  'webhook.resumed',
  'webhook.disabled',
  'webhook.verified',
] as const;

export type InternalTopic = (typeof internalTopics)[number];

/** The changes of a workspace's webhook subscriptions. */
export type WebhookTopic = Extract<InternalTopic, `webhook.${string}`>;

/** Writes one internal event on `db`, which must be the transaction of the change. */
export async function writeInternalEvent(db: Queryable, topic: InternalTopic, payload: unknown): Promise<void> {
  await writeOutbox(db, topic, payload);
}

/** An internal topic as a literal of a typed statement that writes its event inside (with outboxInsertFrom). */
export function internalTopic(topic: InternalTopic): RawBuilder<string> {
  return outboxTopic(topic);
}
