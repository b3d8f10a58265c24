// Attempts whose node is slow: a node whose own attempt outlives its lease (a starved process) does not send it again
// when a job for the same attempt comes back, while another node, which cannot tell a slow node from a dead one,
// takes the lease over; and the record of an attempt that was sent is tried again when it fails (here a row lock held
// past lock_timeout), instead of leaving the row to be sent again once its lease runs out. Time is a manual clock an
// hour ahead of the platform's, so the platform's own sweeper leaves the rows to the runners of this test.
import pg from 'pg';
import { ManualClock } from '../../platform/clock.js';
import { defaultDependencyTimeouts, postgresTimeoutOptions } from '../../platform/dependency-timeouts.js';
import { createLogger } from '../../platform/logger.js';
import { newId } from '../../platform/ids.js';
import { svcWorkspace } from '../../../test/support/workspace.js';
import { svc, webhookRig, type WebhookRig } from '../../../test/support/webhooks.js';
import { eventRequestsTo } from '../../../test/helpers/received.js';
import { eventually } from '../../../test/helpers/expect.js';
import { AttemptRunner } from './attempts.js';
import { createWebhookEngine, type WebhookEngine } from './engine.js';
import { envelopeText, newEventId } from './events.js';

let rig: WebhookRig;
let engine: WebhookEngine;
let pool: pg.Pool;
const logs: string[] = [];
const clock = new ManualClock(new Date(Date.now() + 3_600_000));

beforeAll(async () => {
  rig = await webhookRig();
  const { config } = rig.platform;
  if (!config.redisUrl || !config.databaseUrl) throw new Error('the rig runs with PostgreSQL and Redis');
  // A lock waited on for 300 ms fails the statement, as DATABASE_LOCK_TIMEOUT_MS does in production.
  pool = new pg.Pool({
    connectionString: config.databaseUrl,
    ...postgresTimeoutOptions({ ...defaultDependencyTimeouts, databaseLockTimeoutMs: 300 }),
  });
  engine = await createWebhookEngine({
    sql: pool,
    redisUrl: config.redisUrl,
    clock,
    log: createLogger('warn', { write: (line: string) => void logs.push(line) }),
    settings: { ...config.webhooks, timeoutMs: 10_000 },
  });
});
afterAll(async () => {
  await engine?.close();
  await pool?.end();
  await rig?.stop();
});

/** A webhook to the receiver's path and one delivery of it due now (by the manual clock), not queued. */
async function dueDelivery(path: string): Promise<{ id: string; webhookId: string }> {
  const ws = await svcWorkspace(rig.platform);
  const key = (await ws.key(['webhook.*'])).key;
  const created = await svc(rig.platform, key, 'POST', '/api/v1/webhooks', {
    name: path,
    url: `${rig.receiver.origin}${path}`,
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
  return { id, webhookId: created.body.id };
}

const attemptsSentTo = (path: string) => eventRequestsTo(rig.receiver.received, path).map((r) => r.headers['x-svc-attempt']);

async function deliveryRow(id: string) {
  return (await rig.platform.db.query('select status, attempt_count, error from webhook_deliveries where id = $1', [id])).rows[0];
}

test('a node does not take over the lease of its own attempt in flight; another node takes it over', async () => {
  // Every answer comes after 3 s: long enough for the test to move the clock past the lease meanwhile.
  rig.receiver.respond(() => ({ status: 200, delayMs: 3_000 }));
  const { id, webhookId } = await dueDelivery('/lease');
  const ref = { id, round: 0, attempt: 1 };

  const node = new AttemptRunner(engine);
  const first = node.run(ref);
  await rig.receiver.waitFor(() => attemptsSentTo('/lease').length === 1);
  clock.advance(60_000);
  // The job of the same attempt again (the sweeper saw the lease run out): this node is still sending it.
  await expect(node.run(ref)).resolves.toEqual({});
  expect(attemptsSentTo('/lease')).toEqual(['1']);

  const other = new AttemptRunner(engine);
  await expect(other.run(ref)).resolves.toEqual({ completedWebhookId: webhookId });
  expect(attemptsSentTo('/lease')).toEqual(['1', '1']);
  await first;
  expect(await deliveryRow(id)).toEqual({ status: 'succeeded', attempt_count: 1, error: null });
}, 60_000);

test('the record of a sent attempt that fails is tried again: the attempt is recorded once and not sent again', async () => {
  const { id } = await dueDelivery('/record');
  const locker = await rig.platform.db.connect();
  try {
    // While the attempt is on the wire, another transaction locks its row: the record waits past lock_timeout.
    let locked: Promise<unknown> = Promise.resolve();
    rig.receiver.respond(() => {
      locked = locker.query('begin').then(() => locker.query('select 1 from webhook_deliveries where id = $1 for update', [id]));
      return { status: 500, delayMs: 1_000 };
    });
    const running = new AttemptRunner(engine).run({ id, round: 0, attempt: 1 });
    await eventually(async () => logs.some((l) => l.includes('recording a webhook attempt failed')));
    await locked;
    await locker.query('commit');
    await expect(running).resolves.toEqual({});
  } finally {
    locker.release();
  }
  expect(attemptsSentTo('/record')).toEqual(['1']);
  expect(await deliveryRow(id)).toEqual({ status: 'pending', attempt_count: 1, error: 'HTTP 500' });
}, 60_000);
