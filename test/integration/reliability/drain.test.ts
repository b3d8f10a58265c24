// SIGTERM drains: the platform (a child process on a database of its own) stops accepting connections, finishes the
// requests in flight (here sends held on a row lock), publishes their events with a last relay drain and exits 0;
// a drain that cannot finish ends at SHUTDOWN_TIMEOUT_MS with status 1. Drain hooks run while everything is up.
import { connect } from 'node:net';
import pg from 'pg';
import { count } from '../../helpers/expect.js';
import { startChildPlatform, type ChildPlatform } from '../../support/child-platform.js';
import { call, isolatedInfra, startTestPlatform, tenantFactory, type TestAccount } from '../../support/platform.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const long = 120_000;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let db: pg.Pool;
let dataDir: string;
const children: ChildPlatform[] = [];

beforeAll(async () => {
  infra = await isolatedInfra();
  dataDir = await mkdtemp(join(tmpdir(), 'platform-drain-'));
}, long);
afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await db?.end();
  await infra?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

// The sends under test wait on a row lock held by the test: bounded waits longer than any drain here, so that only
// the shutdown bound (or the lock's release) ends them, not the default 2 s lock timeout.
const patientWaits = { DATABASE_LOCK_TIMEOUT_MS: '60000', DATABASE_STATEMENT_TIMEOUT_MS: '60000' };

async function start(env: Record<string, string> = {}) {
  const child = await startChildPlatform({
    dataDir,
    env: { DATABASE_URL: infra.databaseUrl, REDIS_URL: infra.redisUrl, ...patientWaits, ...env },
  });
  children.push(child);
  db ??= new pg.Pool({ connectionString: infra.databaseUrl, max: 3 });
  const alice = await (await tenantFactory(db, 'chat')()).account();
  const res = await call(child.chatUrl, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Drain' } });
  return { child, alice, roomId: res.body.data.id as string };
}

/** Holds the room row's lock, so every send to it waits in the database until release(). */
async function lockRoom(roomId: string) {
  const client = new pg.Client({ connectionString: infra.databaseUrl });
  await client.connect();
  await client.query('begin');
  await client.query('select 1 from rooms where id = $1 for update', [roomId]);
  return {
    release: async () => {
      await client.query('commit');
      await client.end();
    },
    abandon: async () => {
      await client.query('rollback').catch(() => undefined);
      await client.end();
    },
  };
}

const waitingOnLocks = () =>
  count(db, "select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()");

function sendAll(url: string, who: TestAccount, roomId: string, n: number) {
  return Array.from({ length: n }, (_, i) =>
    call(url, 'POST', `/api/v1/rooms/${roomId}/messages`, {
      token: who.token,
      body: { text: `in flight ${i}` },
      headers: { 'idempotency-key': `drain-${i}` },
    }),
  );
}

function connectionRefused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

async function until(check: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test(
  'SIGTERM: in-flight sends complete, their events are published, new connections are refused, exit 0',
  async () => {
    const { child, alice, roomId } = await start();
    const lock = await lockRoom(roomId);
    const inFlight = sendAll(child.chatUrl, alice, roomId, 10);
    await until(async () => (await waitingOnLocks()) >= 10);

    child.proc.kill('SIGTERM');
    await until(() => connectionRefused(child.chatUrl));
    // Still draining: the sends wait on the lock and the process waits for them.
    expect(child.proc.exitCode).toBeNull();
    await lock.release();

    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(await count(db, 'select count(*) as n from messages where room_id = $1', [roomId])).toBe(10);
    // The relay published every event before the process ended (no other process runs on this database).
    expect(
      await count(
        db,
        "select count(*) as n from outbox where payload->>'roomId' = $1 and topic = 'message.created' and published_at is not null",
        [roomId],
      ),
    ).toBe(10);
    expect(child.output()).toContain('"shutting down"');
  },
  long,
);

test(
  'a drain that cannot finish ends at SHUTDOWN_TIMEOUT_MS with status 1 and says so',
  async () => {
    const { child, alice, roomId } = await start({ SHUTDOWN_TIMEOUT_MS: '2000' });
    const lock = await lockRoom(roomId);
    const inFlight = sendAll(child.chatUrl, alice, roomId, 2);
    await until(async () => (await waitingOnLocks()) >= 2);
    child.proc.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 1, signal: null });
    expect(child.output()).toContain('shutdown did not finish within SHUTDOWN_TIMEOUT_MS');
    await Promise.allSettled(inFlight);
    await lock.abandon();
  },
  long,
);

test(
  'drain hooks run first, while the listeners still serve',
  async () => {
    const platform = await startTestPlatform({ services: ['chat'] });
    const seen: number[] = [];
    platform.onDrain(async () => {
      seen.push((await fetch(`${platform.chatUrl}/healthz`)).status);
    });
    await platform.stop();
    expect(seen).toEqual([200]);
  },
  long,
);
