// ticket.sla_breached from the ticket's SLA timer: a delayed BullMQ job per ticket at its deadline, judged against
// PostgreSQL and the injected clock. The test moves the clock and runs the queued job (promotes it) instead of
// waiting hours; the platform has a database and a Redis database of its own, so no other worker takes its jobs.
import { Queue, type Job } from 'bullmq';
import { eventually } from '../../helpers/expect.js';
import { svcHeaders } from '../../helpers/workspace-expect.js';
import { eventsSince, expectEnvelope, names, outboxMark } from '../../helpers/workspace-events.js';
import { call, isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { connectRedis, type Redis } from '../../../src/platform/redis.js';
import { slaJobId, slaQueueName } from '../../../src/workspace/tickets/sla.js';

const hour = 3_600_000;
const clock = new ManualClock(new Date('2026-11-23T09:00:00.000Z'));
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let queue: Queue;
let redis: Redis;
let ws: SvcWorkspace;
let key: string;

beforeAll(async () => {
  infra = await isolatedInfra();
  platform = await startTestPlatform(
    { databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, services: ['workspace', 'workers'] },
    clock,
  );
  redis = connectRedis(infra.redisUrl, 'sla-test');
  queue = new Queue(slaQueueName, { connection: redis });
  ws = await svcWorkspace(platform);
  key = (await ws.key(['ticket.*'])).key;
});
afterAll(async () => {
  await queue.close();
  redis.disconnect();
  await platform.stop();
  await infra.drop();
});

const svc = (method: string, path: string, body?: unknown) =>
  call(platform.workspaceUrl, method, `/api/v1${path}`, { headers: svcHeaders(key), body });

async function breachedAt(id: string): Promise<Date | null> {
  const { rows } = await platform.db.query<{ sla_breached_at: Date | null }>('select sla_breached_at from tickets where id = $1', [id]);
  return rows[0]!.sla_breached_at;
}

/** The ticket's timer job, once queued (the listener queues it right after the commit). */
async function timer(ticket: { id: string; sla_due_at: string }): Promise<Job> {
  return eventually(async () => queue.getJob(slaJobId(ticket.id, new Date(ticket.sla_due_at))), 5000);
}

/** Runs a delayed job now and waits until the worker is done with it (completed, or delayed again). */
/** A job that has run to the end: completed, or already removed (unknown). */
const finished = (state: string) => state === 'completed' || state === 'unknown';

async function runNow(job: Job, until: (state: string) => boolean): Promise<void> {
  await job.promote();
  await eventually(async () => until(await queue.getJobState(job.id!)), 5000);
}

test('the timer is queued at the deadline; run early it waits again; past the deadline it breaches the ticket once', async () => {
  const ticket = (await svc('POST', '/tickets', { subject: 'Server down', priority: 'urgent' })).body;
  expect(Date.parse(ticket.sla_due_at) - Date.parse(ticket.created_at)).toBe(4 * hour);
  const job = await timer(ticket);
  expect(await job.getState()).toBe('delayed');

  // Run before the deadline (by the injected clock): nothing happens and the job is delayed again.
  const mark = await outboxMark(platform.db);
  await runNow(job, (state) => state === 'delayed');
  expect(await breachedAt(ticket.id)).toBeNull();

  clock.advance(4 * hour + 1);
  await runNow(job, finished);
  const breached = await breachedAt(ticket.id);
  expect(breached?.toISOString()).toBe(clock.now().toISOString());
  const events = await eventsSince(platform.db, mark, ws.id);
  expect(names(events)).toEqual(['ticket.sla_breached']);
  expectEnvelope(events[0]!, {
    event: 'ticket.sla_breached',
    workspaceId: ws.id,
    changes: { sla_breached_at: { from: null, to: breached!.toISOString() } },
  });
  expect(events[0]!.envelope.data).toMatchObject({ id: ticket.id, status: 'open', sla_breached_at: breached!.toISOString() });

  // The same timer again, and the sweep: the ticket is already breached, so nothing more is written.
  const again = await queue.add('check', { ticketId: ticket.id, dueAt: Date.parse(ticket.sla_due_at) }, { jobId: `again-${ticket.id}` });
  await eventually(async () => (await queue.getJobState(again.id!)) === 'completed', 5000);
  const sweep = await queue.add('sweep', {});
  await eventually(async () => (await queue.getJobState(sweep.id!)) === 'completed', 5000);
  expect(names(await eventsSince(platform.db, mark, ws.id))).toEqual(['ticket.sla_breached']);
  expect((await svc('GET', '/tickets?sla_breached=true')).body.items.map((t: { id: string }) => t.id)).toEqual([ticket.id]);
});

test('a ticket resolved in time never breaches, even when its timer runs after the deadline', async () => {
  const ticket = (await svc('POST', '/tickets', { subject: 'Slow page', priority: 'high' })).body;
  const job = await timer(ticket);
  clock.advance(2 * hour);
  expect((await svc('PATCH', `/tickets/${ticket.id}`, { status: 'resolved' })).status).toBe(200);
  const mark = await outboxMark(platform.db);
  clock.advance(7 * hour);
  await runNow(job, finished);
  expect(await breachedAt(ticket.id)).toBeNull();
  expect(await eventsSince(platform.db, mark, ws.id)).toEqual([]);
});

test('a timer lost on its way to the queue is caught by the sweep, once', async () => {
  const ticket = (await svc('POST', '/tickets', { subject: 'Lost timer', priority: 'urgent' })).body;
  await (await timer(ticket)).remove();
  const mark = await outboxMark(platform.db);
  clock.advance(5 * hour);
  for (let i = 0; i < 2; i++) {
    const sweep = await queue.add('sweep', {});
    await eventually(async () => (await queue.getJobState(sweep.id!)) === 'completed', 5000);
  }
  expect(await breachedAt(ticket.id)).not.toBeNull();
  expect(names(await eventsSince(platform.db, mark, ws.id))).toEqual(['ticket.sla_breached']);
});

test('a priority change moves the deadline and queues a timer for it; the old timer then does nothing', async () => {
  const ticket = (await svc('POST', '/tickets', { subject: 'Moved deadline', priority: 'low' })).body;
  const oldJob = await timer(ticket);
  const raised = (await svc('PATCH', `/tickets/${ticket.id}`, { priority: 'urgent' })).body;
  expect(Date.parse(raised.sla_due_at) - Date.parse(ticket.created_at)).toBe(4 * hour);
  const newJob = await timer(raised);
  const mark = await outboxMark(platform.db);
  clock.advance(4 * hour + 1);
  await runNow(oldJob, finished);
  expect(await breachedAt(ticket.id)).toBeNull();
  await runNow(newJob, finished);
  expect(await breachedAt(ticket.id)).not.toBeNull();
  expect(names(await eventsSince(platform.db, mark, ws.id))).toEqual(['ticket.sla_breached']);
});
