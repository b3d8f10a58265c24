// Exactly once across processes: scheduled messages and reminder occurrences fired by worker processes (the built
// platform, `node dist/src/main.js` with SERVICES=workers) on one database and one Redis, with two workers at once,
// with the only worker killed (SIGKILL) and restarted between schedule and fire time, and with a worker killed while
// it fires. The real clock runs here; timers are a few seconds ahead, never minutes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eventually } from '../../helpers/expect.js';
import { call, isolatedInfra, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';

const mainJs = join(process.cwd(), 'dist/src/main.js');
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let dataDir: string;
let api: TestPlatform;
let tenant: TestTenant;
const running = new Set<WorkerProcess>();

/** A worker process of the built platform; its log tells when its workers are up. */
class WorkerProcess {
  private child: ChildProcess | undefined;
  private output = '';
  private exited: Promise<void> | undefined;

  async start(): Promise<void> {
    this.output = '';
    const child = spawn(process.execPath, [mainJs], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        SERVICES: 'workers',
        DATABASE_URL: infra.databaseUrl,
        REDIS_URL: infra.redisUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        SCHEDULE_SWEEP_MS: '500',
      },
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    running.add(this);
    await eventually(async () => this.output.includes('"msg":"workers started"') || child.exitCode !== null, 30_000, 50);
    if (child.exitCode !== null) throw new Error(`the worker exited while starting:\n${this.output}`);
  }

  /** SIGKILL: no shutdown, open transactions and active jobs are abandoned. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
    running.delete(this);
  }

  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      this.exited!.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 15_000))),
    ]);
    clearTimeout(timer);
    if (!stopped) await this.kill();
    running.delete(this);
  }
}

beforeAll(async () => {
  infra = await isolatedInfra();
  dataDir = await mkdtemp(join(tmpdir(), 'time-workers-'));
  // The API node: no workers of its own, so every fire below happens in a worker process.
  api = await startTestPlatform({ services: ['chat'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl });
  tenant = await api.tenant();
}, 60_000);
afterAll(async () => {
  for (const w of [...running]) await w.stop();
  await api?.stop();
  await infra?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const post = (who: TestAccount, path: string, body: unknown) => call(api.chatUrl, 'POST', `/api/v1${path}`, { token: who.token, body });

async function inChunks<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/**
 * Rooms with a sender each, `n` scheduled messages spread over them and `r` one-time reminders, all due at one
 * instant, far enough ahead for creating them all through the API on a busy machine: the first 25 are made with a
 * provisional time, their pace sets the instant, and they are moved to it (PATCH arms the new time).
 */
async function scheduleWave(tag: string, n: number, r: number, minLeadMs: number): Promise<Date> {
  const senders = await Promise.all(Array.from({ length: 10 }, () => tenant.account()));
  const rooms: Array<{ roomId: string; sender: TestAccount }> = [];
  for (const sender of senders) {
    const res = await post(sender, '/rooms', { type: 'GROUP', name: `${tag} room` });
    rooms.push({ roomId: res.body.data.id, sender });
  }
  const schedule = async (i: number, due: Date): Promise<{ id: string; sender: TestAccount }> => {
    const { roomId, sender } = rooms[i % rooms.length]!;
    const res = await post(sender, `/rooms/${roomId}/messages/scheduled`, { text: `${tag} ${i}`, sendAt: due.toISOString() });
    if (res.status !== 201) throw new Error(`schedule: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.data.id, sender };
  };
  const trial = 25;
  const started = Date.now();
  const provisional = new Date(Date.now() + 3_600_000);
  const first: Array<{ id: string; sender: TestAccount }> = [];
  await inChunks([...Array(trial).keys()], 25, async (i) => first.push(await schedule(i, provisional)));
  const perItem = (Date.now() - started) / trial;
  // The pace of the first requests overstates the rest's (warm-up); the lead is capped at a minute.
  const due = new Date(Date.now() + Math.min(60_000, Math.max(minLeadMs, 1.4 * perItem * (n + r - trial) + 2_000)));
  await inChunks(first, 25, async ({ id, sender }) => {
    const res = await call(api.chatUrl, 'PATCH', `/api/v1/messages/scheduled/${id}`, {
      token: sender.token,
      body: { sendAt: due.toISOString() },
    });
    if (res.status !== 200) throw new Error(`move: ${res.status} ${JSON.stringify(res.body)}`);
  });
  await inChunks([...Array(n - trial).keys()], 25, (i) => schedule(trial + i, due));
  const owners = await Promise.all(Array.from({ length: r }, () => tenant.account()));
  await inChunks(owners, 10, async (o) => {
    const res = await post(o, '/reminders', { text: `${tag} reminder`, remindAt: due.toISOString() });
    if (res.status !== 201) throw new Error(`reminder: ${res.status} ${JSON.stringify(res.body)}`);
  });
  if (Date.now() >= due.getTime()) throw new Error('creating the wave ran past its due time');
  return due;
}

/** Waits until the wave is settled (up to 45 s after its due time), then checks every count. */
async function expectExactlyOnce(tag: string, n: number, r: number, due: Date): Promise<void> {
  await eventually(
    async () =>
      (await count(api.db, "select count(*) as n from scheduled_messages where text like $1 and status = 'PENDING'", [`${tag} %`])) === 0 &&
      (await count(api.db, "select count(*) as n from reminders where text = $1 and status = 'ACTIVE'", [`${tag} reminder`])) === 0,
    Math.max(0, due.getTime() - Date.now()) + 45_000,
    100,
  );
  expect(await count(api.db, "select count(*) as n from scheduled_messages where text like $1 and status = 'SENT'", [`${tag} %`])).toBe(n);
  expect(await count(api.db, 'select count(*) as n from messages where text like $1 and text <> $2', [`${tag} %`, `${tag} reminder`])).toBe(
    n,
  );
  expect(
    await count(api.db, 'select count(distinct text) as n from messages where text like $1 and text <> $2', [
      `${tag} %`,
      `${tag} reminder`,
    ]),
  ).toBe(n);
  expect(await count(api.db, 'select count(*) as n from messages where text = $1', [`${tag} reminder`])).toBe(r);
  expect(
    await count(api.db, "select count(*) as n from reminders where text = $1 and status = 'DONE' and fire_count = 1", [`${tag} reminder`]),
  ).toBe(r);
  // Every room's sequence is gapless: a killed batch gave back nothing it had taken.
  const gaps = await count(
    api.db,
    `select count(*) as n from (select room_id from messages where room_id in (select room_id from scheduled_messages where text like $1)
      group by room_id having count(*) <> max(seq)) g`,
    [`${tag} %`],
  );
  expect(gaps).toBe(0);
}

/** Stops every worker process a test started, whatever the test's outcome. */
async function withWorkers(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    for (const w of [...running]) await w.stop();
  }
}

test(
  'two worker processes: each scheduled message and reminder occurrence produces exactly one message',
  () =>
    withWorkers(async () => {
      const [a, b] = [new WorkerProcess(), new WorkerProcess()];
      await Promise.all([a.start(), b.start()]);
      const due = await scheduleWave('pair', 400, 40, 3_000);
      await expectExactlyOnce('pair', 400, 40, due);
    }),
  180_000,
);

test(
  'the only worker killed between schedule and fire time, then restarted: everything fires once',
  () =>
    withWorkers(async () => {
      const worker = new WorkerProcess();
      await worker.start();
      const due = await scheduleWave('restart', 150, 20, 3_000);
      await worker.kill();
      // Due while no worker runs: nothing may be sent.
      await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - Date.now()) + 1000));
      expect(await count(api.db, "select count(*) as n from messages where text like 'restart %'")).toBe(0);
      await worker.start();
      await expectExactlyOnce('restart', 150, 20, due);
    }),
  180_000,
);

test(
  'a worker killed while it fires, with another one running: everything fires once',
  () =>
    withWorkers(async () => {
      const [a, b] = [new WorkerProcess(), new WorkerProcess()];
      await Promise.all([a.start(), b.start()]);
      const due = await scheduleWave('killed', 500, 40, 3_000);
      // Kill A as the timers come due, while it holds batches; B (and A once back) finish the work.
      await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - Date.now()) + 30));
      await a.kill();
      await a.start();
      await expectExactlyOnce('killed', 500, 40, due);
    }),
  180_000,
);
