// Nothing is lost across a crash: the platform (a child process running dist/src/main.js) is killed with SIGKILL and
// Redis is restarted empty in the middle of a retry schedule (WEBHOOK_RETRY_SCHEDULE=0,2,2,2,2,2). The delivery rows
// in PostgreSQL are the record of truth: once the platform is back, its sweeper re-enqueues the due attempts whose
// jobs died with Redis, and the outbox drain takes the events written while it was down. Every event is delivered,
// and each delivery id is sent only as the retry rules say (attempts 1, 2, 3, each once).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../../src/platform/infra/free-port.js';
import { newId } from '../../../src/platform/ids.js';
import { issueSvcKey } from '../../../src/workspace/keys/service.js';
import { call, isolatedInfra } from '../../support/platform.js';
import { startWebhookReceiver, type Responder, type WebhookReceiver } from '../../support/webhook-receiver.js';
import { emitEvent, eventually } from '../../support/webhooks.js';
import { holds } from '../../helpers/wait.js';

const root = new URL('../../../', import.meta.url).pathname;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let db: pg.Pool;
let receiver: WebhookReceiver;
let redis: ChildProcess | undefined;
let redisDir: string;
let redisPort: number;
let node: ChildProcess | undefined;
let nodeOutput = '';
let workspacePort: number;

async function startRedis(): Promise<void> {
  // No persistence: a restart loses every queued job, as a Redis without AOF or a failed-over replica would.
  const child = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', redisDir, '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out.slice(-300)}`)));
  });
  redis = child;
}

async function kill(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Retries: attempt 2 at once, attempt 3 after `third` seconds, the rest after 2 s. */
const retrySchedule = (third: number) => `0,2,${third},2,2,2`;

async function startNode(schedule = retrySchedule(2)): Promise<void> {
  nodeOutput = '';
  const child = spawn(process.execPath, [join(root, 'dist/src/main.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      SERVICES: 'workspace,workers',
      HOST: '127.0.0.1',
      WORKSPACE_PORT: String(workspacePort),
      LOG_LEVEL: 'warn',
      OUTBOX_POLL_MS: '200',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CA_FILE: receiver.caFile,
      WEBHOOK_RETRY_SCHEDULE: schedule,
      // Generous: on a loaded machine a short time-out can end an attempt before the receiver logs it.
      WEBHOOK_TIMEOUT_MS: '10000',
      WEBHOOK_SWEEP_MS: '300',
    },
  });
  child.stdout!.on('data', (c: Buffer) => (nodeOutput += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (nodeOutput += c.toString()));
  node = child;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the platform exited while starting: ${nodeOutput.slice(-1000)}`);
    try {
      if ((await fetch(`http://127.0.0.1:${workspacePort}/readyz`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`the platform did not get ready: ${nodeOutput.slice(-1000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  infra = await isolatedInfra();
  db = new pg.Pool({ connectionString: infra.databaseUrl, max: 2 });
  receiver = await startWebhookReceiver();
  redisDir = await mkdtemp(join(tmpdir(), 'webhook-redis-'));
  redisPort = await freePort();
  workspacePort = await freePort();
  await startRedis();
  // Attempt 3 ten minutes after attempt 2: when the test kills the node after every attempt 2, none is in flight,
  // however slow the machine. The test then brings attempt 3 forward in the database, as the ten minutes would.
  await startNode(retrySchedule(600));
}, 90_000);
afterAll(async () => {
  await kill(node);
  await kill(redis);
  await db?.end();
  await receiver?.close();
  await infra?.drop();
  if (redisDir) await rm(redisDir, { recursive: true, force: true });
});

async function workspaceWithKey(): Promise<{ workspaceId: string; key: string }> {
  const owner = newId();
  const workspaceId = newId();
  await db.query("insert into modules (code, name) values ('restart', 'restart') on conflict do nothing");
  await db.query(
    "insert into accounts (id, module_code, customer_account_id, display_name, account_type, status) values ($1, 'restart', 'c', 'Owner', 'USER', 'ACTIVE')",
    [owner],
  );
  await db.query("insert into workspaces (id, name, plan, owner_id, svc_plan) values ($1, $2, 'business', $3, 'business')", [
    workspaceId,
    `ws-${randomUUID().slice(0, 8)}`,
    owner,
  ]);
  await db.query("insert into workspace_members (workspace_id, account_id, role) values ($1, $2, 'owner')", [workspaceId, owner]);
  const { key } = await issueSvcKey(db, { workspaceId, name: 'restart', scopes: ['webhook.*'], createdBy: owner });
  return { workspaceId, key };
}

/** Answers pings 200, and event attempts 500 before attempt n and 200 from it on. */
function succeedingFromAttempt(n: number): Responder {
  return (r) => (r.headers['x-svc-event'] === 'ping' || Number(r.headers['x-svc-attempt']) >= n ? { status: 200 } : { status: 500 });
}

/** The webhook's event deliveries once there are n and every one succeeded, undefined until then. */
async function allSucceeded(webhookId: string, n: number) {
  const { rows } = await db.query(
    "select id, event_id, status, attempt_count from webhook_deliveries where webhook_id = $1 and kind = 'event'",
    [webhookId],
  );
  return rows.length === n && rows.every((x) => x.status === 'succeeded') ? rows : undefined;
}

test('SIGKILL of the platform and an empty Redis mid-schedule: every event delivered, no attempt sent twice', async () => {
  const { workspaceId, key } = await workspaceWithKey();
  // Attempts 1 and 2 of every delivery fail; attempt 3 succeeds.
  receiver.respond(succeedingFromAttempt(3));
  const created = await call(`http://127.0.0.1:${workspacePort}`, 'POST', '/api/v1/webhooks', {
    headers: { authorization: `Bearer ${key}` },
    body: { name: 'durable', url: `${receiver.origin}/durable`, events: ['ticket.status_changed'] },
  });
  expect(created.body.status).toBe('Active');
  const webhookId = created.body.id as string;

  const before = [];
  for (let i = 0; i < 20; i++)
    before.push(await emitEvent(db, { workspaceId, event: 'ticket.status_changed', data: { id: `t${i}`, status: 'pending' } }));
  // Mid-schedule: every delivery has failed attempt 2 and waits ten minutes for attempt 3; nothing is in flight.
  await eventually(
    async () => {
      const { rows } = await db.query(
        "select count(*)::int as n from webhook_deliveries where webhook_id = $1 and kind = 'event' and status = 'pending' and attempt_count = 2",
        [webhookId],
      );
      return holds(rows[0].n === 20);
    },
    30_000,
    'attempt 2 failed for all 20',
  );
  await kill(node);
  await kill(redis);
  await startRedis();

  // Events written while the platform is down.
  const during = [];
  for (let i = 0; i < 5; i++)
    during.push(await emitEvent(db, { workspaceId, event: 'ticket.status_changed', data: { id: `late${i}`, status: 'open' } }));
  // The ten minutes have passed; the restarted node retries after 2 s.
  await db.query("update webhook_deliveries set next_attempt_at = now() where webhook_id = $1 and status = 'pending'", [webhookId]);
  await startNode();

  const rows = await eventually(() => allSucceeded(webhookId, 25), 60_000, 'all 25 delivered');
  expect(rows.map((r) => r.event_id).sort()).toEqual([...before, ...during].map((e) => e.id).sort());
  const eventRequests = receiver.received.filter((r) => r.headers['x-svc-event'] === 'ticket.status_changed');
  expect(new Set(eventRequests.map((r) => r.headers['x-svc-delivery']))).toEqual(new Set(rows.map((r) => r.event_id)));
  for (const row of rows) {
    const attempts = eventRequests.filter((r) => r.headers['x-svc-delivery'] === row.event_id).map((r) => r.headers['x-svc-attempt']);
    expect({ id: row.id, attempts }).toEqual({ id: row.id, attempts: ['1', '2', '3'] });
    expect(row.attempt_count).toBe(3);
  }
}, 150_000);
