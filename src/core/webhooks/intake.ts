// Event intake: the outbox consumer of svc.event rows. Inside the drain's transaction (so every event is taken
// exactly once, with the rows being marked published), each event becomes one delivery per webhook of the same
// workspace and environment that subscribes to it and is not Disabled: pending for Active and Unverified ones,
// held for Paused ones (sent after resume). The attempts are enqueued after commit.
import type { OutboxConsumer } from '../../platform/outbox.js';
import { newId } from '../../platform/ids.js';
import type { WebhookEngine } from './engine.js';
import { envelopeText, parseSvcEvent, svcEventTopic } from './events.js';
import { insertEventDeliveries, subscribedWebhooks, type DeliveryColumns } from './intake-queries.js';
import type { ScheduledAttempt } from './rows.js';

export function webhookIntake(engine: WebhookEngine): OutboxConsumer {
  return async (client, rows) => {
    const events = rows
      .filter((r) => r.topic === svcEventTopic)
      .map((r) => ({ outboxId: r.id, parsed: parseSvcEvent(r.payload) }))
      .filter((e): e is { outboxId: number; parsed: NonNullable<ReturnType<typeof parseSvcEvent>> } => e.parsed !== null);
    if (events.length === 0) return undefined;
    const workspaceIds = [...new Set(events.map((e) => e.parsed.envelope.workspace_id))];
    const hooks = await subscribedWebhooks(client, workspaceIds);
    if (hooks.length === 0) return undefined;
    const now = engine.clock.now();
    const dueAt = new Date(now.getTime() + engine.delayBefore(1) * 1000);
    const cols: DeliveryColumns = {
      id: [] as string[],
      webhook: [] as string[],
      workspace: [] as string[],
      environment: [] as string[],
      event: [] as string[],
      eventId: [] as string[],
      envelope: [] as string[],
      status: [] as string[],
      due: [] as (Date | null)[],
      outbox: [] as number[],
    };
    for (const { outboxId, parsed } of events) {
      const { environment, envelope } = parsed;
      const matching = hooks.filter(
        (h) => h.workspace_id === envelope.workspace_id && h.environment === environment && h.events.includes(envelope.event),
      );
      if (matching.length === 0) continue;
      const text = envelopeText(envelope);
      for (const hook of matching) {
        const held = hook.status === 'Paused';
        cols.id.push(newId());
        cols.webhook.push(hook.id);
        cols.workspace.push(envelope.workspace_id);
        cols.environment.push(environment);
        cols.event.push(envelope.event);
        cols.eventId.push(envelope.id);
        cols.envelope.push(text);
        cols.status.push(held ? 'held' : 'pending');
        cols.due.push(held ? null : dueAt);
        cols.outbox.push(outboxId);
      }
    }
    if (cols.id.length === 0) return undefined;
    const inserted = await insertEventDeliveries(client, cols, now);
    const attempts: ScheduledAttempt[] = inserted
      .filter((r) => r.status === 'pending')
      .map((r) => ({ id: r.id, round: 0, attempt: 1, dueAt }));
    return () => engine.enqueue(attempts);
  };
}
