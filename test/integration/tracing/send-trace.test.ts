// Tracing on inside the test process, with the SDK's in-memory exporter: a chat send is one request span named by
// its operation id, with its SQL and Redis statements as children, and the realtime delivery of the message it
// caused links back to that span through the outbox; error envelopes carry the trace id as their request id.
import { AlwaysOnSampler, InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { SpanKind } from '@opentelemetry/api';
import { startTracing, type Tracing } from '../../../src/platform/tracing/sdk.js';
import { eventually } from '../../helpers/expect.js';
import { call, isolatedInfra, type TestPlatform } from '../../support/platform.js';
import { createRoom, Probe, startNode, wsUrl } from '../realtime/support.js';
import { createBot, pendingUpdates, privateRoomWith } from '../../helpers/bots.js';
import { eventOf } from '../../helpers/match.js';
import { linkedSpan, serverSpanIn, spanIn } from '../../helpers/spans.js';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let node: TestPlatform;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;

beforeAll(async () => {
  tracing = await startTracing({ sampler: new AlwaysOnSampler(), exporter, immediate: true });
  // A database and Redis of its own: on the shared ones another test process's relay may drain this file's events,
  // and the consumer spans would then be recorded in that process.
  infra = await isolatedInfra();
  node = await startNode({ databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl });
});
afterAll(async () => {
  await node?.stop();
  await tracing?.shutdown();
  await infra?.drop();
});

const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const childrenOf = (parent: ReadableSpan) => spans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

test('a send: the request span named sendMessage, its SQL and Redis children, and the realtime delivery linked to it', async () => {
  const tenant = await node.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const probe = await Probe.open(wsUrl(node), alice.token);
  try {
    await probe.subscribeEvents();
    const roomId = await createRoom(node, bob, [alice]);
    const res = await call(node.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: bob.token, body: { text: 'traced' } });
    expect(res.status).toBe(201);
    const messageId = res.body.data.id as string;
    await probe.waitFor(eventOf('message.created', { messageId }));

    // The request id is the trace id of the request's span.
    const traceId = res.headers.get('x-request-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.meta.requestId).toBe(traceId);
    const request = await eventually(async () => spanIn(spans(), 'sendMessage', traceId));
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.attributes).toMatchObject({
      'http.route': '/api/v1/rooms/:roomId/messages',
      'http.response.status_code': 201,
      listener: 'chat',
    });

    const sql = childrenOf(request).filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.some((s) => /insert\s+into\s+"?outbox"?/i.test(String(s.attributes['db.query.text'])))).toBe(true);
    expect(childrenOf(request).some((s) => s.attributes['db.system.name'] === 'redis')).toBe(true);

    // The delivery runs in a trace of its own, linked to the span that wrote the outbox row.
    const delivery = await eventually(async () => linkedSpan(spans(), 'realtime.deliver', request.spanContext().spanId, traceId));
    expect(delivery.kind).toBe(SpanKind.CONSUMER);
    expect(delivery.spanContext().traceId).not.toBe(traceId);
    expect(delivery.attributes['messaging.destination.name']).toBe('message.created');
  } finally {
    await probe.close();
  }
});

test('an error envelope carries the trace id as its request id, and the span records the status', async () => {
  const tenant = await node.tenant();
  const alice = await tenant.account();
  const res = await call(node.chatUrl, 'POST', '/api/v1/rooms/00000000-0000-4000-8000-000000000000/messages', {
    token: alice.token,
    body: { text: 'nowhere' },
  });
  expect(res.status).toBeGreaterThanOrEqual(400);
  const requestId = res.body.meta.requestId as string;
  expect(requestId).toMatch(/^[0-9a-f]{32}$/);
  expect(res.headers.get('x-request-id')).toBe(requestId);
  const span = await eventually(async () => serverSpanIn(spans(), requestId));
  expect(span.name).toBe('sendMessage');
  expect(span.attributes['http.response.status_code']).toBe(res.status);
});

test("a caller's traceparent makes the request span its child, in the caller's trace", async () => {
  const tenant = await node.tenant();
  const alice = await tenant.account();
  const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerSpan = '00f067aa0ba902b7';
  const res = await call(node.chatUrl, 'GET', '/api/v1/me/labels', {
    token: alice.token,
    headers: { traceparent: `00-${callerTrace}-${callerSpan}-01` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-request-id')).toBe(callerTrace);
  const span = await eventually(async () => serverSpanIn(spans(), callerTrace));
  expect(span.parentSpanContext?.spanId).toBe(callerSpan);
});

test('a message to a bot: the bot.updates span that stored its update links to the send', async () => {
  const tenant = await node.tenant();
  const alice = await tenant.account();
  const bot = await createBot(node, tenant);
  const roomId = await privateRoomWith(node, alice, bot.accountId);
  const res = await call(node.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: alice.token, body: { text: 'hello bot' } });
  expect(res.status).toBe(201);
  const traceId = res.body.meta.requestId as string;
  expect(await pendingUpdates(node, bot.token)).toHaveLength(1);
  const request = await eventually(async () => spanIn(spans(), 'sendMessage', traceId));
  const consumer = await eventually(async () => linkedSpan(spans(), 'bot.updates', request.spanContext().spanId));
  expect(consumer.kind).toBe(SpanKind.CONSUMER);
  // Its SQL (the updates stored) are its children.
  expect(childrenOf(consumer).some((s) => s.attributes['db.system.name'] === 'postgresql')).toBe(true);
});
