// The event catalogue is one list: the code's, the workspace document's and the partner document's, whose webhooks
// maps declare a delivery for each event.
import { readFile } from 'node:fs/promises';
import { envelopeText, parseSvcEvent, pingEvent, webhookEvents } from './events.js';

async function enumOf(doc: string, schema: string): Promise<string[]> {
  const spec = JSON.parse(await readFile(new URL(`../../../generated/openapi/${doc}.json`, import.meta.url), 'utf8'));
  const node = spec.components.schemas[schema];
  return node.enum ?? node.anyOf.map((v: { const: string }) => v.const);
}

test('the catalogue of the seed, the same in both documents', async () => {
  expect(webhookEvents).toHaveLength(33);
  expect(new Set(webhookEvents).size).toBe(33);
  expect(await enumOf('workspace', 'Webhooks.WebhookEvent')).toEqual([...webhookEvents]);
  expect(await enumOf('partner', 'Webhooks.WebhookEvent')).toEqual([...webhookEvents]);
});

test('both documents declare a delivery (the webhooks map) for every catalogue event and the ping', async () => {
  for (const doc of ['workspace', 'partner']) {
    const spec = JSON.parse(await readFile(new URL(`../../../generated/openapi/${doc}.json`, import.meta.url), 'utf8'));
    expect(Object.keys(spec.webhooks).sort()).toEqual([...webhookEvents, pingEvent].sort());
    expect(Object.keys(spec.paths).filter((path) => path.startsWith('/webhook-deliveries'))).toEqual([]);
  }
});

test('the envelope is written in the seed order, changes as {from, to}; the outbox payload is read defensively', () => {
  const text = envelopeText({
    data: { id: 'd' },
    api_version: 'v1',
    workspace_id: 'w',
    occurred_at: '2026-01-01T00:00:00.000Z',
    event: 'deal.stage_changed',
    id: 'evt_1',
    changes: { stage: { to: 'won', from: 'open' } },
  });
  expect(text).toBe(
    '{"id":"evt_1","event":"deal.stage_changed","occurred_at":"2026-01-01T00:00:00.000Z","workspace_id":"w","api_version":"v1","data":{"id":"d"},"changes":{"stage":{"from":"open","to":"won"}}}',
  );
  const ws = '01a207fc-8db5-72ab-bcbc-c136b784a503';
  expect(
    parseSvcEvent({
      environment: 'live',
      envelope: { id: 'evt_1', event: 'lead.created', occurred_at: 'x', workspace_id: ws.toUpperCase() },
    }),
  ).toEqual({
    environment: 'live',
    envelope: { id: 'evt_1', event: 'lead.created', occurred_at: 'x', workspace_id: ws, api_version: 'v1', data: {} },
  });
  for (const bad of [
    null,
    'x',
    {},
    { environment: 'live' },
    { environment: 'live', envelope: { id: 1 } },
    { environment: 'live', envelope: { id: 'e', event: 'x', occurred_at: 'x', workspace_id: 'nope' } },
  ]) {
    expect(parseSvcEvent(bad)).toBeNull();
  }
});
