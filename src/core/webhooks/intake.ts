// Event intake: the outbox consumer of svc.event rows. Inside the drain's transaction (so every event is taken
// exactly once, with the rows being marked published), each event becomes one delivery per webhook of the same
// workspace and environment that subscribes to it and is not Disabled: pending for Active and Unverified ones,
// held for Paused ones (sent after resume). The attempts are enqueued after commit.
import { sql } from 'kysely';
import type { OutboxConsumer } from '../../platform/outbox.js';
import { rows as rowsOf, type Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import type { WebhookEngine } from './engine.js';
import { envelopeText, parseSvcEvent, svcEventTopic } from './events.js';
import type { ScheduledAttempt, WebhookChecked } from './rows.js';
import { coreDb } from '../tables.js';

/** The webhooks of these workspaces that are not Disabled. */
function subscribers(client: Runner, workspaceIds: string[]) {
  return rowsOf(
    client,
    coreDb
      .selectFrom('webhooks')
      .select(['id', 'workspace_id', 'environment', 'events', 'status'])
      .$narrowType<Pick<WebhookChecked, 'status'>>()
      .where(sql<boolean>`workspace_id = any(${workspaceIds}::uuid[])`)
      .where('status', '<>', 'Disabled'),
  );
}

/** The new deliveries, one array per column. */
interface DeliveryColumns {
  id: string[];
  webhook: string[];
  workspace: string[];
  environment: string[];
  event: string[];
  eventId: string[];
  envelope: string[];
  status: string[];
  due: (Date | null)[];
  outbox: number[];
}

/** Inserts the deliveries; an event already taken for a webhook (webhook_deliveries_intake) is skipped. */
function insertDeliveries(client: Runner, cols: DeliveryColumns, now: Date) {
  const table = sql<{
    id: string;
    webhook_id: string;
    workspace_id: string;
    environment: string;
    event: string;
    event_id: string;
    envelope: string;
    status: string;
    next_attempt_at: Date | null;
    outbox_id: number;
  }>`unnest(${cols.id}::uuid[], ${cols.webhook}::uuid[], ${cols.workspace}::uuid[], ${cols.environment}::text[], ${cols.event}::text[],
            ${cols.eventId}::text[], ${cols.envelope}::text[], ${cols.status}::text[], ${cols.due}::timestamptz[], ${cols.outbox}::bigint[])`;
  return rowsOf(
    client,
    coreDb
      .insertInto('webhook_deliveries')
      .columns([
        'id',
        'webhook_id',
        'workspace_id',
        'environment',
        'kind',
        'event',
        'event_id',
        'envelope',
        'status',
        'next_attempt_at',
        'outbox_id',
        'created_at',
      ])
      .expression(
        coreDb
          .selectFrom(
            table.as<'t'>(
              sql`t (id, webhook_id, workspace_id, environment, event, event_id, envelope, status, next_attempt_at, outbox_id)`,
            ),
          )
          .select([
            't.id',
            't.webhook_id',
            't.workspace_id',
            't.environment',
            sql.lit('event').as('kind'),
            't.event',
            't.event_id',
            't.envelope',
            't.status',
            't.next_attempt_at',
            't.outbox_id',
            sql<Date>`${now}::timestamptz`.as('created_at'),
          ]),
      )
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'status']),
  );
}

export function webhookIntake(engine: WebhookEngine): OutboxConsumer {
  return async (client, rows) => {
    const events = rows
      .filter((r) => r.topic === svcEventTopic)
      .map((r) => ({ outboxId: r.id, parsed: parseSvcEvent(r.payload) }))
      .filter((e): e is { outboxId: number; parsed: NonNullable<ReturnType<typeof parseSvcEvent>> } => e.parsed !== null);
    if (events.length === 0) return undefined;
    const workspaceIds = [...new Set(events.map((e) => e.parsed.envelope.workspace_id))];
    const hooks = await subscribers(client, workspaceIds);
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
    const inserted = await insertDeliveries(client, cols, now);
    const attempts: ScheduledAttempt[] = inserted
      .filter((r) => r.status === 'pending')
      .map((r) => ({ id: r.id, round: 0, attempt: 1, dueAt }));
    return () => engine.enqueue(attempts);
  };
}
