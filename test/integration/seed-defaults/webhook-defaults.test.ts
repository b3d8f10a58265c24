// Convention B's delivery defaults, asserted at their defaults (WEBHOOK_RETRY_SCHEDULE and WEBHOOK_TIMEOUT_MS unset):
// six attempts at 0, 1 min, 5 min, 30 min, 2 h and 12 h after the previous failure, then the webhook is paused; a
// receiver that does not answer is given up on after 10 s. The retry waits pass on a clock the test moves, against a
// real HTTPS receiver: each attempt comes exactly when its wait has passed on that clock, and not a sweep earlier.
import { ManualClock } from '../../../src/platform/clock.js';
import { loadConfig } from '../../../src/platform/config/index.js';
import { svcWorkspace } from '../../support/workspace.js';
import { emitEvent, eventually, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';
import type { TestPlatform } from '../../support/platform.js';

const clock = new ManualClock(new Date(Math.floor(Date.now() / 1000) * 1000));
const defaults = loadConfig({}).webhooks;
const sweepMs = 500;
let rig: WebhookRig;
let platform: TestPlatform;

beforeAll(async () => {
  rig = await webhookRig({ retrySchedule: defaults.retrySchedule, timeoutMs: defaults.timeoutMs, sweepMs }, {}, clock);
  platform = rig.platform;
  rig.receiver.respond((r) => {
    if (r.headers['x-svc-event'] === 'ping') return { status: 200, body: 'ok' };
    // Longer than the time-out: the answer would come too late.
    if (r.path.startsWith('/silent')) return { status: 200, body: 'late', delayMs: defaults.timeoutMs + 4_000 };
    return { status: 500, body: 'failing' };
  });
});
afterAll(async () => {
  await rig?.stop();
});

/** A webhook of a new workspace on the path, and one event for it; the delivery's id. */
async function deliveryTo(path: string): Promise<{ webhookId: string; deliveryId: string }> {
  const ws = await svcWorkspace(platform);
  const key = (await ws.key(['webhook.*'])).key;
  const hook = await svc(platform, key, 'POST', '/api/v1/webhooks', {
    name: `hook ${path}`,
    url: `${rig.receiver.origin}${path}`,
    events: ['lead.created'],
  });
  expect(hook.status).toBe(201);
  await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.created' });
  const deliveryId = await eventually(async () => {
    const { rows } = await platform.db.query("select id from webhook_deliveries where webhook_id = $1 and kind <> 'ping'", [hook.body.id]);
    return rows[0]?.id as string | undefined;
  });
  return { webhookId: hook.body.id, deliveryId };
}

/** What the receiver got on the path, the webhook's ping left out. */
const deliveriesTo = (path: string) => rig.receiver.received.filter((r) => r.path === path && r.headers['x-svc-event'] !== 'ping');

interface DeliveryRow {
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  error: string | null;
}

const rowOf = async (deliveryId: string): Promise<DeliveryRow> =>
  (await platform.db.query('select status, attempt_count, next_attempt_at, error from webhook_deliveries where id = $1', [deliveryId]))
    .rows[0];

/** The row once the attempt is recorded; a failure names the attempt and shows the row as it was last seen. */
async function afterAttempt(deliveryId: string, attempt: number): Promise<DeliveryRow> {
  let last: DeliveryRow | undefined;
  try {
    return await eventually(async () => {
      last = await rowOf(deliveryId);
      return last.attempt_count === attempt && last.status !== 'sending' ? last : undefined;
    }, 30_000);
  } catch (err) {
    throw new Error(`attempt ${attempt} was not recorded; the delivery: ${JSON.stringify(last)}`, { cause: err });
  }
}

test('six attempts on the schedule 0, 1 min, 5 min, 30 min, 2 h, 12 h; then the webhook is paused', async () => {
  expect(defaults.retrySchedule).toEqual([0, 60, 300, 1_800, 7_200, 43_200]);
  const { webhookId, deliveryId } = await deliveryTo('/failing');
  let row = await afterAttempt(deliveryId, 1);
  for (const [attempt, waitSeconds] of [
    [2, 60],
    [3, 300],
    [4, 1_800],
    [5, 7_200],
    [6, 43_200],
  ] as const) {
    // The failed attempt ran at the clock's time, which has not moved since: the next is due exactly the wait later.
    expect(row.next_attempt_at!.getTime() - clock.now().getTime()).toBe(waitSeconds * 1000);
    // A second before it is due, sweeps pass and nothing is sent.
    clock.set(new Date(row.next_attempt_at!.getTime() - 1_000));
    await new Promise((r) => setTimeout(r, sweepMs * 3));
    expect((await rowOf(deliveryId)).attempt_count).toBe(attempt - 1);
    // Due (and overdue by a sweep, for the sweeper to take it up): the next attempt comes.
    clock.set(new Date(row.next_attempt_at!.getTime() + sweepMs));
    row = await afterAttempt(deliveryId, attempt);
  }
  expect(row).toMatchObject({ status: 'failed', next_attempt_at: null });
  const attempts = deliveriesTo('/failing').map((r) => r.headers['x-svc-attempt']);
  expect(attempts).toEqual(['1', '2', '3', '4', '5', '6']);
  const webhook = await platform.db.query('select status from webhooks where id = $1', [webhookId]);
  expect(webhook.rows[0].status).toBe('Paused');
});

test('a receiver that does not answer is given up on after 10 s', async () => {
  expect(defaults.timeoutMs).toBe(10_000);
  const { deliveryId } = await deliveryTo('/silent');
  await rig.receiver.waitFor(() => deliveriesTo('/silent').length > 0, 30_000);
  const sentAt = deliveriesTo('/silent')[0]!.at;
  const row = await afterAttempt(deliveryId, 1);
  const gaveUpAfter = Date.now() - sentAt;
  expect(row.error).toBe('timeout');
  expect(gaveUpAfter).toBeGreaterThanOrEqual(10_000 - 100);
  expect(gaveUpAfter).toBeLessThan(10_000 + 2_500);
}, 60_000);
