// PostgreSQL, then Redis, stopped and started again under load, with the platform as a child process on them (as a
// node with DATABASE_URL and REDIS_URL runs): /readyz answers 503 while one is gone, requests get 503 in their
// envelope (no hang, no crash, no other status), and the process recovers by itself once it is back.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../src/platform/infra/embedded-postgres.js';
import { freePort } from '../../../src/platform/infra/free-port.js';
import { startLocalRedis, type LocalRedis } from '../../../src/platform/infra/local-redis.js';
import { eventually } from '../../helpers/expect.js';
import { startChildPlatform, type ChildPlatform } from '../../support/child-platform.js';
import { tenantFactory, type TestAccount } from '../../support/platform.js';

const long = 240_000;
let dir: string;
let database: EmbeddedDatabase;
let redis: LocalRedis;
let dbPort: number;
let redisPort: number;
let partnerPort: number;
let workspacePort: number;
let platform: ChildPlatform;
let db: pg.Pool;
let alice: TestAccount;
let roomId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-outage-'));
  dbPort = await freePort();
  redisPort = await freePort();
  database = await startEmbeddedPostgres(dir, undefined, { port: dbPort });
  redis = await startLocalRedis(dir, { port: redisPort });
  partnerPort = await freePort();
  workspacePort = await freePort();
  platform = await startChildPlatform({
    dataDir: join(dir, 'platform'),
    env: {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      OUTBOX_POLL_MS: '1000',
      SERVICES: 'chat,partner,workspace,workers',
      PARTNER_PORT: String(partnerPort),
      WORKSPACE_PORT: String(workspacePort),
    },
  });
  db = new pg.Pool({ connectionString: database.url, max: 2 });
  db.on('error', () => undefined);
  alice = await (await tenantFactory(db, 'chat')()).account();
  const res = await fetch(`${platform.chatUrl}/api/v1/rooms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'GROUP', name: 'Outage' }),
  });
  roomId = ((await res.json()) as { data: { id: string } }).data.id;
}, long);

afterAll(async () => {
  // A failed test leaves its load running; it must not outlive the file.
  for (const t of traffics) await t.stop();
  await db?.end().catch(() => undefined);
  if (platform && platform.proc.exitCode === null) {
    platform.proc.kill('SIGTERM');
    await platform.exited;
  }
  await redis?.stop().catch(() => undefined);
  await database?.stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

interface Outcome {
  status: number | 'no answer';
  code?: string;
  envelope: boolean;
}

/** One request; a request without an answer within 15 s counts as a hang. */
async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Outcome> {
  try {
    const res = await fetch(`${platform.chatUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${alice.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    const json = (await res.json()) as { data?: unknown; error?: { code: string }; meta?: { requestId?: string } };
    const envelope = res.headers.get('x-request-id') === json.meta?.requestId && (json.data !== undefined || json.error !== undefined);
    return { status: res.status, code: json.error?.code, envelope };
  } catch {
    return { status: 'no answer', envelope: false };
  }
}

const send = (i: number) => request('POST', `/api/v1/rooms/${roomId}/messages`, { text: `load ${i}` });
const history = () => request('GET', `/api/v1/rooms/${roomId}/messages?limit=20`);
const readyz = async () => {
  const res = await fetch(`${platform.chatUrl}/readyz`, { signal: AbortSignal.timeout(15_000) });
  return { status: res.status, body: (await res.json()) as { checks: { database: string; redis: string } } };
};
/** The /readyz answer once it is 503, undefined while it is not (for eventually()). */
async function readyzUnavailable() {
  const r = await readyz();
  return r.status === 503 ? r : undefined;
}

const traffics: Array<{ stop(): Promise<Outcome[]> }> = [];

/** Sends and history pages from `workers` loops until stopped; every outcome is kept. */
function load(workers: number) {
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: workers }, async (_, w) => {
    while (running) {
      const outcome = w % 2 === 0 ? await send(n++) : await history();
      outcomes.push(outcome);
      if (outcome.status === 'no answer') await new Promise((r) => setTimeout(r, 100));
    }
  });
  const traffic = {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
  traffics.push(traffic);
  return traffic;
}

/** Every answer is a success or a 503 service_unavailable in the chat envelope; nothing hung, nothing else. */
function expectOnlySuccessOr503(outcomes: Outcome[]) {
  const wrong = outcomes.filter(
    (o) => !(o.envelope && (o.status === 200 || o.status === 201 || (o.status === 503 && o.code === 'service_unavailable'))),
  );
  expect(wrong).toEqual([]);
}

test(
  'PostgreSQL stopped and started under load: 503 while gone, recovery without restart',
  async () => {
    const traffic = load(6);
    await eventually(async () => traffic.outcomes.filter((o) => o.status === 201).length >= 20, 30_000);
    await database.stop();

    const down = await eventually(readyzUnavailable, 30_000);
    expect(down.body.checks).toEqual({ database: 'fail', redis: 'ok' });
    const during = await send(-1);
    expect(during).toMatchObject({ status: 503, code: 'service_unavailable', envelope: true });
    await eventually(async () => traffic.outcomes.filter((o) => o.status === 503).length >= 20, 30_000);
    // The partner and workspace listeners answer 503 in their own envelopes.
    const partner = await fetch(`http://127.0.0.1:${partnerPort}/api/v1/workspaces`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(partner.status).toBe(503);
    expect(await partner.json()).toMatchObject({ error: { code: 'service_unavailable' }, request_id: expect.any(String) });
    const workspace = await fetch(`http://127.0.0.1:${workspacePort}/api/v1/workspaces/${roomId}/svc-keys`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(workspace.status).toBe(503);
    expect(await workspace.json()).toEqual({ error: 'service_unavailable', message: expect.any(String) });
    expect(workspace.headers.get('retry-after')).toBe('2');

    database = await startEmbeddedPostgres(dir, undefined, { port: dbPort });
    await eventually(async () => (await readyz()).status === 200, 60_000, 100);
    const mark = traffic.outcomes.length;
    await eventually(async () => traffic.outcomes.slice(mark).filter((o) => o.status === 201).length >= 20, 60_000);
    expectOnlySuccessOr503(await traffic.stop());
    expect(platform.proc.exitCode).toBeNull();
  },
  long,
);

test(
  'Redis stopped and started under load: 503 for sends (rate limit), reads go on, events published after',
  async () => {
    const traffic = load(6);
    await eventually(async () => traffic.outcomes.filter((o) => o.status === 201).length >= 20, 30_000);
    await redis.stop();

    const down = await eventually(readyzUnavailable, 30_000);
    expect(down.body.checks).toEqual({ database: 'ok', redis: 'fail' });
    // A send needs its rate counter in Redis: refused, nothing stored. A read needs only PostgreSQL.
    const before = Number((await db.query('select count(*) as n from messages where room_id = $1', [roomId])).rows[0].n);
    expect(await send(-2)).toMatchObject({ status: 503, code: 'service_unavailable', envelope: true });
    expect(await history()).toMatchObject({ status: 200, envelope: true });
    await eventually(async () => traffic.outcomes.filter((o) => o.status === 503).length >= 20, 30_000);
    const stored = Number(
      (await db.query("select count(*) as n from messages where room_id = $1 and text = 'load -2'", [roomId])).rows[0].n,
    );
    expect(stored).toBe(0);
    expect(before).toBeGreaterThan(0);

    redis = await startLocalRedis(dir, { port: redisPort });
    await eventually(async () => (await readyz()).status === 200, 60_000, 100);
    const mark = traffic.outcomes.length;
    await eventually(async () => traffic.outcomes.slice(mark).filter((o) => o.status === 201).length >= 20, 60_000);
    expectOnlySuccessOr503(await traffic.stop());
    expect(platform.proc.exitCode).toBeNull();
    // Every event committed while Redis was away is published once it is back.
    await eventually(
      async () =>
        Number(
          (await db.query("select count(*) as n from outbox where published_at is null and payload->>'roomId' = $1", [roomId])).rows[0].n,
        ) === 0,
      30_000,
      200,
    );
  },
  long,
);
