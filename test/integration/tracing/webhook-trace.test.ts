// Tracing on, with the SDK's in-memory exporter: a workspace event written to the outbox under a span reaches a real
// HTTPS receiver through a webhook attempt whose span links to that producer span, with the POST as its child.
import { context, SpanKind, trace } from '@opentelemetry/api';
import { AlwaysOnSampler, InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { platformTracer } from '../../../src/platform/tracing/state.js';
import { startTracing, type Tracing } from '../../../src/platform/tracing/sdk.js';
import { svcWorkspace } from '../../support/workspace.js';
import { emitEvent, eventually, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';
import { httpChildOf, linkedSpan } from '../../helpers/spans.js';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let rig: WebhookRig;

beforeAll(async () => {
  tracing = await startTracing({ sampler: new AlwaysOnSampler(), exporter, immediate: true });
  rig = await webhookRig();
});
afterAll(async () => {
  await rig?.stop();
  await tracing?.shutdown();
});

const spans = (): ReadableSpan[] => exporter.getFinishedSpans();

test("a webhook attempt's span links to the span that wrote the event, and its POST is the attempt's child", async () => {
  const platform = rig.platform;
  const ws = await svcWorkspace(platform);
  const key = (await ws.key(['webhook.*'])).key;
  rig.receiver.respond(() => ({ status: 200, body: 'ok' }));
  const created = await svc(platform, key, 'POST', '/api/v1/webhooks', {
    name: 'traced',
    url: `${rig.receiver.origin}/traced`,
    events: ['lead.created'],
  });
  expect(created.status).toBe(201);

  const producer = platformTracer().startSpan('producer');
  const envelope = await context.with(trace.setSpan(context.active(), producer), () =>
    emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.created' }),
  );
  producer.end();
  await eventually(async () => rig.receiver.received.find((r) => r.headers['x-svc-delivery'] === envelope.id), 20_000, 'the delivery');

  const attempt = await eventually(
    async () => linkedSpan(spans(), 'webhook.attempt', producer.spanContext().spanId),
    10_000,
    'the linked attempt span',
  );
  expect(attempt.kind).toBe(SpanKind.CONSUMER);
  expect(attempt.attributes).toMatchObject({ 'webhook.event': 'lead.created', 'webhook.attempt': 1 });
  const post = httpChildOf(spans(), attempt, 'POST');
  expect(post?.attributes['http.response.status_code']).toBe(200);
});
