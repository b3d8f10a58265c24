// Event intake: the outbox consumer of svc.event rows. Inside the drain's transaction (so every event is taken
// exactly once, with the rows being marked published), each event becomes one delivery per webhook of the same
// workspace and environment that subscribes to it and is not Disabled: pending for Active and Unverified ones,
// held for Paused ones (sent after resume). The attempts are enqueued after commit.
import type { OutboxConsumer } from '../../platform/outbox.js';
import { newId } from '../../platform/ids.js';
import type { WebhookEngine } from './engine.js';
import { envelopeText, parseSvcEvent, svcEventTopic } from './events.js';
import type { ScheduledAttempt, WebhookStatus } from './rows.js';

interface HookRow {
  id: string;
  workspace_id: string;
  environment: string;
  events: string[];
  status: WebhookStatus;
}

export function webhookIntake(engine: WebhookEngine): OutboxConsumer {
  return async (client, rows) => {
    const events = rows
      .filter((r) => r.topic === svcEventTopic)
      .map((r) => ({ outboxId: r.id, parsed: parseSvcEvent(r.payload) }))
      .filter((e): e is { outboxId: number; parsed: NonNullable<ReturnType<typeof parseSvcEvent>> } => e.parsed !== null);
    if (events.length === 0) return undefined;
    const workspaceIds = [...new Set(events.map((e) => e.parsed.envelope.workspace_id))];
    const { rows: hooks } = await client.query<HookRow>(
      "select id, workspace_id, environment, events, status from webhooks where workspace_id = any($1::uuid[]) and status <> 'Disabled'",
      [workspaceIds],
    );
    if (hooks.length === 0) return undefined;
    const now = engine.clock.now();
    const dueAt = new Date(now.getTime() + engine.delayBefore(1) * 1000);
    const cols = {
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
    const { rows: inserted } = await client.query<{ id: string; status: string }>(
      `insert into webhook_deliveries (id, webhook_id, workspace_id, environment, kind, event, event_id, envelope, status, next_attempt_at, outbox_id, created_at)
       select id, webhook_id, workspace_id, environment, 'event', event, event_id, envelope, status, next_attempt_at, outbox_id, $11
         from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::bigint[])
              as t (id, webhook_id, workspace_id, environment, event, event_id, envelope, status, next_attempt_at, outbox_id)
       on conflict do nothing
       returning id, status`,
      [
        cols.id,
        cols.webhook,
        cols.workspace,
        cols.environment,
        cols.event,
        cols.eventId,
        cols.envelope,
        cols.status,
        cols.due,
        cols.outbox,
        now,
      ],
    );
    const attempts: ScheduledAttempt[] = inserted
      .filter((r) => r.status === 'pending')
      .map((r) => ({ id: r.id, round: 0, attempt: 1, dueAt }));
    return () => engine.enqueue(attempts);
  };
}
