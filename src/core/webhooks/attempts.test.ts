// The lease of an attempt: a node whose own attempt outlives its lease (a starved process) does not send it again
// when a job for the same attempt comes back; another node, which cannot tell a slow node from a dead one, takes the
// lease over. Time is a manual clock an hour ahead of the platform's, so the platform's own sweeper leaves the row to
// the runners of this test.
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../platform/logger.js';
import { newId } from '../../platform/ids.js';
import { svcWorkspace } from '../../../test/support/workspace.js';
import { svc, webhookRig, type WebhookRig } from '../../../test/support/webhooks.js';
import { eventRequestsTo } from '../../../test/helpers/received.js';
import { AttemptRunner } from './attempts.js';
import { createWebhookEngine, type WebhookEngine } from './engine.js';
import { envelopeText, newEventId } from './events.js';

let rig: WebhookRig;
let engine: WebhookEngine;
const clock = new ManualClock(new Date(Date.now() + 3_600_000));

beforeAll(async () => {
  rig = await webhookRig();
  const { config, db } = rig.platform;
  if (!config.redisUrl) throw new Error('the rig runs with Redis');
  engine = await createWebhookEngine({
    sql: db,
    redisUrl: config.redisUrl,
    clock,
    log: createLogger('silent'),
    settings: { ...config.webhooks, timeoutMs: 10_000 },
  });
});
afterAll(async () => {
  await engine?.close();
  await rig?.stop();
});

test('a node does not take over the lease of its own attempt in flight; another node takes it over', async () => {
  const ws = await svcWorkspace(rig.platform);
  const key = (await ws.key(['webhook.*'])).key;
  // Every answer comes after 3 s: long enough for the test to move the clock past the lease meanwhile.
  rig.receiver.respond(() => ({ status: 200, delayMs: 3_000 }));
  const created = await svc(rig.platform, key, 'POST', '/api/v1/webhooks', {
    name: 'lease',
    url: `${rig.receiver.origin}/lease`,
    events: ['lead.created'],
  });
  expect(created.status).toBe(201);
  const id = newId();
  const eventId = newEventId();
  const envelope = envelopeText({
    id: eventId,
    event: 'lead.created',
    occurred_at: clock.now().toISOString(),
    workspace_id: ws.id,
    api_version: 'v1',
    data: { id: 'lead-1' },
  });
  await rig.platform.db.query(
    `insert into webhook_deliveries (id, webhook_id, workspace_id, environment, kind, event, event_id, envelope, status, next_attempt_at, created_at)
     select $1, id, workspace_id, environment, 'event', 'lead.created', $3, $4, 'pending', $5, $5 from webhooks where id = $2`,
    [id, created.body.id, eventId, envelope, clock.now()],
  );
  const attemptsSent = () => eventRequestsTo(rig.receiver.received, '/lease').map((r) => r.headers['x-svc-attempt']);
  const ref = { id, round: 0, attempt: 1 };

  const node = new AttemptRunner(engine);
  const first = node.run(ref);
  await rig.receiver.waitFor(() => attemptsSent().length === 1);
  clock.advance(60_000);
  // The job of the same attempt again (the sweeper saw the lease run out): this node is still sending it.
  await expect(node.run(ref)).resolves.toEqual({});
  expect(attemptsSent()).toEqual(['1']);

  const other = new AttemptRunner(engine);
  await expect(other.run(ref)).resolves.toEqual({ completedWebhookId: created.body.id });
  expect(attemptsSent()).toEqual(['1', '1']);
  await first;
  const row = (await rig.platform.db.query('select status, attempt_count from webhook_deliveries where id = $1', [id])).rows[0];
  expect(row).toEqual({ status: 'succeeded', attempt_count: 1 });
}, 60_000);
