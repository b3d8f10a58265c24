// PostgreSQL and Redis frozen (SIGSTOP: connections stay open, nothing answers), then thawed; Redis killed and
// started again, then the SIGTERM drain. The platform is a child process with short configured waits: every request
// that needs the frozen server answers 503 in its listener's envelope within the configured bound instead of waiting
// for the thaw, everything works again after it, and the drain after a Redis crash exits 0 at once.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../src/platform/infra/embedded-postgres.js';
import { freePort } from '../../../src/platform/infra/free-port.js';
import { startLocalRedis, type LocalRedis } from '../../../src/platform/infra/local-redis.js';
import { eventually } from '../../helpers/expect.js';
import { startChildPlatform, type ChildPlatform } from '../../support/child-platform.js';
import { tenantFactory, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';
import { newId } from '../../../src/platform/ids.js';
import { allPass } from '../../helpers/wait.js';

const long = 240_000;
// The configured waits (short, so the freezes can be short) and the bound they give: connection wait plus statement
// time-out plus the client's second of grace. Slack covers a busy test machine.
const waits = {
  DATABASE_STATEMENT_TIMEOUT_MS: '1000',
  DATABASE_LOCK_TIMEOUT_MS: '500',
  DATABASE_CONNECT_TIMEOUT_MS: '1500',
  REDIS_COMMAND_TIMEOUT_MS: '1000',
};
const boundMs = 1_500 + 1_000 + 1_000;
// A frozen Redis: REDIS_COMMAND_TIMEOUT_MS from the request's command, whatever other commands wait on the connection.
// The slack is less than a second time-out: an answer after two time-outs fails.
const redisBoundMs = 1_000;
const redisSlackMs = 700;
// The freeze outlasts bound and slack: an answer within them came while the server was still frozen.
const slackMs = 3_000;
const freezeMs = 8_000;

let dir: string;
let database: EmbeddedDatabase;
let redis: LocalRedis;
let redisPort: number;
let partnerPort: number;
let workspacePort: number;
let platform: ChildPlatform;
let db: pg.Pool;
let alice: TestAccount;
let roomId: string;
let svcKey: string;
let botToken: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-frozen-'));
  redisPort = await freePort();
  database = await startEmbeddedPostgres(dir, undefined, { port: await freePort() });
  redis = await startLocalRedis(dir, { port: redisPort });
  partnerPort = await freePort();
  workspacePort = await freePort();
  platform = await startChildPlatform({
    dataDir: join(dir, 'platform'),
    env: {
      ...waits,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      SERVICES: 'chat,partner,workspace,workers',
      PARTNER_PORT: String(partnerPort),
      WORKSPACE_PORT: String(workspacePort),
      SHUTDOWN_TIMEOUT_MS: '20000',
    },
  });
  db = new pg.Pool({ connectionString: database.url, max: 2 });
  db.on('error', () => undefined);
  alice = await (await tenantFactory(db, 'chat')()).account();
  // The waits are short: on a busy machine the first requests of a cold process may run into them, so retry.
  roomId = await eventually(
    async () => {
      const res = await coldFetch(`${platform.chatUrl}/api/v1/rooms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'GROUP', name: 'Frozen' }),
      });
      return res?.status === 201 ? ((await res.json()) as { data: { id: string } }).data.id : undefined;
    },
    60_000,
    200,
  );
  // Workspace fixtures need only the database and a tenant factory.
  const fixtures = { db, tenant: tenantFactory(db, 'chat') } as unknown as TestPlatform;
  svcKey = (await (await svcWorkspace(fixtures)).key(['webhook.webhooks.read'])).key;
  botToken = await createBot();
}, long);

/**
 * The setup's requests to the cold child: a connection the loaded machine resets counts as "not yet" and is retried
 * (undefined); a child that exited fails the setup with what it printed.
 */
async function coldFetch(url: string, init: RequestInit): Promise<Response | undefined> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (platform.proc.exitCode !== null || platform.proc.signalCode !== null) {
      throw new Error(`the platform exited during the setup (${String(err)}):\n${platform.output()}`, { cause: err });
    }
    return undefined;
  }
}

/** A bot made through the administration API by a platform administrator. */
async function createBot(): Promise<string> {
  const admin = await tenantFactory(db, 'chat')({ moduleCode: 'platform' });
  const adminId = newId();
  await db.query(
    `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status) values ($1, $2, $3, 'Admin', 'USER', 'ACTIVE')`,
    [adminId, admin.moduleCode, admin.customer],
  );
  const token = await admin.sign({ pa: true }, { subject: adminId });
  const tenant = await tenantFactory(db, 'chat')();
  const username = `bot_${newId().replace(/-/g, '').slice(-12)}`;
  return eventually(
    async () => {
      const res = await coldFetch(`${platform.chatUrl}/api/v1/bots`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username, displayName: 'Frozen bot', moduleCode: tenant.moduleCode, customerAccountId: tenant.customer }),
      });
      return res?.status === 200 ? ((await res.json()) as { data: { token: string } }).data.token : undefined;
    },
    60_000,
    200,
  );
}

afterAll(async () => {
  for (const pid of frozen) signal(pid, 'SIGCONT');
  await db?.end().catch(() => undefined);
  if (platform && platform.proc.exitCode === null) {
    platform.proc.kill('SIGKILL');
    await platform.exited;
  }
  await redis?.stop().catch(() => undefined);
  await database?.stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const frozen = new Set<number>();
function signal(pid: number, sig: 'SIGSTOP' | 'SIGCONT') {
  try {
    process.kill(pid, sig);
    if (sig === 'SIGSTOP') frozen.add(pid);
    else frozen.delete(pid);
  } catch {
    // Gone already.
  }
}

/** The postmaster and every process it started (backends, checkpointer, WAL writer...). */
function postgresProcesses(): number[] {
  const root = database.pid!;
  const pids = [root];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === root) pids.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return pids;
}

async function frozenFor<T>(pids: number[], work: () => Promise<T>): Promise<T> {
  const thawAt = performance.now() + freezeMs;
  for (const pid of pids) signal(pid, 'SIGSTOP');
  try {
    return await work();
  } finally {
    await new Promise((r) => setTimeout(r, Math.max(0, thawAt - performance.now())));
    for (const pid of pids) signal(pid, 'SIGCONT');
  }
}

interface Timed {
  status: number | 'no answer';
  body: any;
  ms: number;
}

async function timed(url: string, init: RequestInit = {}): Promise<Timed> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(freezeMs + 10_000) });
    const body = await res.json().catch(() => null);
    return { status: res.status, body, ms: performance.now() - started };
  } catch {
    return { status: 'no answer', body: null, ms: performance.now() - started };
  }
}

const bearer = () => ({ authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' });
const chatSend = (text: string) =>
  timed(`${platform.chatUrl}/api/v1/rooms/${roomId}/messages`, { method: 'POST', headers: bearer(), body: JSON.stringify({ text }) });
const chatHistory = () => timed(`${platform.chatUrl}/api/v1/rooms/${roomId}/messages?limit=5`, { headers: bearer() });
const partnerRead = () => timed(`http://127.0.0.1:${partnerPort}/api/v1/workspaces`, { headers: bearer() });
// An svc_ key request: its per-workspace rate counter is in Redis, its key and data in PostgreSQL.
const botGetMe = () => timed(`${platform.chatUrl}/bot/${botToken}/getMe`);
const workspaceRead = () => timed(`http://127.0.0.1:${workspacePort}/api/v1/webhooks`, { headers: { authorization: `Bearer ${svcKey}` } });

function expectChat503(r: Timed) {
  expect(r).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' } } });
}
function expectPartner503(r: Timed) {
  expect(r).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' }, request_id: expect.any(String) } });
}
function expectWorkspace503(r: Timed) {
  expect(r).toMatchObject({ status: 503, body: { error: 'service_unavailable' } });
}
function expectBot503(r: Timed) {
  expect(r).toMatchObject({ status: 503, body: { ok: false, error_code: 503 } });
}
function expectWithinBound(...results: Timed[]) {
  for (const r of results) expect(r.ms).toBeLessThan(boundMs + slackMs);
}

test(
  'Redis frozen: sends, partner and workspace requests answer 503 within the bound; all is well after the thaw',
  async () => {
    await eventually(
      () =>
        allPass(
          async () => (await chatSend('before')).status === 201,
          async () => (await workspaceRead()).status === 200,
        ),
      30_000,
      200,
    );
    const during = await frozenFor([redis.pid!], async () => Promise.all([chatSend('frozen'), partnerRead(), workspaceRead()]));
    const [send, partner, workspace] = during;
    // Each request counts one hit on the same connection: the ones behind the first pipeline get no second wait.
    for (const r of during) expect(r.ms).toBeLessThan(redisBoundMs + redisSlackMs);
    expectChat503(send!);
    expectPartner503(partner!);
    expectWorkspace503(workspace!);
    expectWithinBound(...during);
    // Nothing was stored for the refused send; the next one goes through.
    await eventually(async () => (await chatSend('after')).status === 201, 30_000, 200);
    const stored = await db.query("select text from messages where room_id = $1 and text in ('frozen', 'after')", [roomId]);
    expect(stored.rows.map((r) => r.text)).toEqual(['after']);
  },
  long,
);

test(
  'PostgreSQL frozen: chat reads and sends, partner and workspace requests answer 503 within the bound; all is well after the thaw',
  async () => {
    await eventually(
      () =>
        allPass(
          async () => (await chatHistory()).status === 200,
          async () => (await botGetMe()).status === 200,
        ),
      30_000,
      200,
    );
    const during = await frozenFor(postgresProcesses(), async () => {
      // The first wave finds pooled connections (their statements time out), the second a pool being refilled.
      const first = await Promise.all([chatHistory(), chatSend('frozen db'), partnerRead(), workspaceRead()]);
      const second = await Promise.all([chatHistory(), workspaceRead(), botGetMe()]);
      return [...first, ...second];
    });
    expectChat503(during[0]!);
    expectChat503(during[1]!);
    expectPartner503(during[2]!);
    expectWorkspace503(during[3]!);
    expectChat503(during[4]!);
    expectWorkspace503(during[5]!);
    expectBot503(during[6]!);
    expectWithinBound(...during);
    await eventually(
      () =>
        allPass(
          async () => (await chatHistory()).status === 200,
          async () => (await chatSend('thawed')).status === 201,
        ),
      30_000,
      200,
    );
  },
  long,
);

test(
  'after Redis crashed and came back, SIGTERM drains and exits 0 without an unhandled Redis error',
  async () => {
    process.kill(redis.pid!, 'SIGKILL');
    await eventually(async () => (await fetch(`${platform.chatUrl}/readyz`)).status === 503, 30_000, 100);
    await new Promise((r) => setTimeout(r, 1_500));
    redis = await startLocalRedis(dir, { port: redisPort });
    await eventually(async () => (await fetch(`${platform.chatUrl}/readyz`)).status === 200, 30_000, 100);
    await eventually(async () => (await chatSend('back')).status === 201, 30_000, 200);

    const started = performance.now();
    platform.proc.kill('SIGTERM');
    const exit = await platform.exited;
    // On a failure, what the platform printed last (shown with the exit) says why it exited otherwise.
    expect({ ...exit, output: platform.output().slice(-4000) }).toMatchObject({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(platform.output()).not.toContain('Unhandled error event');
  },
  long,
);
