// What webhooks take from the workspace event catalogue (src/workspace/events), and the envelope every delivery
// carries. spec/workspace/webhooks.tsp and spec/partner/webhooks.tsp list the same event names (events.test.ts keeps
// them equal).
import { isUuid } from '../../platform/ids.js';
import { workspaceEvents, type WorkspaceEvent } from '../events/catalogue.js';

export { newEventId, svcEventTopic } from '../events/outbox.js';

/** The events a webhook may subscribe to: the workspace's catalogue. */
export const webhookEvents = workspaceEvents;

export type WebhookEvent = WorkspaceEvent;

const known = new Set<string>(webhookEvents);

export function isWebhookEvent(name: string): name is WebhookEvent {
  return known.has(name);
}

/** The event of the ping sent when a webhook is saved (or its URL changes); receivers should answer it 2xx. */
export const pingEvent = 'ping';

export interface Envelope {
  /** evt_…: the delivery's id, also sent as X-SVC-Delivery; new on each replay. */
  id: string;
  /** On a replay only: the id of the event's first delivery, kept through replays of replays. */
  replay_of?: string;
  event: string;
  occurred_at: string;
  workspace_id: string;
  api_version: string;
  data: unknown;
  changes?: unknown;
}

/** Each change as {from, to}: the outbox's jsonb stores object keys in its own order. */
function orderedChanges(changes: unknown): unknown {
  if (!changes || typeof changes !== 'object' || Array.isArray(changes)) return changes;
  return Object.fromEntries(
    Object.entries(changes as Record<string, unknown>).map(([field, change]) => {
      const c = change as Record<string, unknown> | null;
      return [field, c && typeof c === 'object' && 'from' in c && 'to' in c ? { from: c.from, to: c.to, ...c } : change];
    }),
  );
}

/** The bytes sent and signed: the envelope's fields in the seed's order, serialised once and stored as is. */
export function envelopeText(e: Envelope): string {
  const ordered: Envelope = {
    id: e.id,
    ...(e.replay_of !== undefined ? { replay_of: e.replay_of } : {}),
    event: e.event,
    occurred_at: e.occurred_at,
    workspace_id: e.workspace_id,
    api_version: e.api_version,
    data: e.data,
  };
  if (e.changes !== undefined && e.changes !== null) ordered.changes = orderedChanges(e.changes);
  return JSON.stringify(ordered);
}

const leadingIds = /^\{"id":("[^"\\]*"),(?:"replay_of":("[^"\\]*"),)?/;

/**
 * The stored envelope of a replay: the same bytes under a new id, with replay_of naming the original event. Only the
 * leading fields are rewritten, so the data keep the bytes (and key order) they were first sent with.
 */
export function replayEnvelopeText(stored: string, newId: string): string {
  const match = leadingIds.exec(stored);
  if (!match) throw new Error('a stored envelope does not start with its id');
  const origin = match[2] ?? match[1]!;
  return `{"id":${JSON.stringify(newId)},"replay_of":${origin},${stored.slice(match[0].length)}`;
}

export interface SvcEvent {
  environment: string;
  envelope: Envelope;
}

/** The payload of a svc.event outbox row, or null when it is not one (it is then skipped, never retried). */
export function parseSvcEvent(payload: unknown): SvcEvent | null {
  if (!payload || typeof payload !== 'object') return null;
  const { environment, envelope } = payload as { environment?: unknown; envelope?: Record<string, unknown> };
  if (typeof environment !== 'string' || !envelope || typeof envelope !== 'object') return null;
  const { id, event, occurred_at: occurredAt, workspace_id: workspaceId, api_version: apiVersion } = envelope;
  if (typeof id !== 'string' || typeof event !== 'string' || typeof occurredAt !== 'string' || typeof workspaceId !== 'string') return null;
  if (!isUuid(workspaceId)) return null;
  return {
    environment,
    envelope: {
      id,
      event,
      occurred_at: occurredAt,
      workspace_id: workspaceId.toLowerCase(),
      api_version: typeof apiVersion === 'string' ? apiVersion : 'v1',
      data: envelope.data ?? {},
      ...(envelope.changes !== undefined ? { changes: envelope.changes } : {}),
    },
  };
}

/** The data of a test delivery when the caller gives none: the seed's lead and deal shapes, an id otherwise. */
export function sampleData(event: string, now: Date): Record<string, unknown> {
  const id = '00000000-0000-4000-8000-000000000001';
  if (event.startsWith('lead.')) {
    return {
      id,
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      email: 'ada@example.com',
      source: 'website',
      status: 'new',
      owner_id: null,
      created_at: now.toISOString(),
      custom_fields: {},
    };
  }
  if (event.startsWith('deal.')) return { id, name: 'Analytical engine', stage: 'proposal', amount: 1000, owner_id: null };
  return { id };
}
