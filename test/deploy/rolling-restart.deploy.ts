// `make test-rolling`: a rolling restart loses nothing. Two nodes of the built platform (chat and workers, on one
// PostgreSQL and Redis) behind a load balancer the test controls; 1,000 sends and 200 STOMP sessions keep going while
// each node in turn leaves the rotation, gets SIGTERM, drains, exits 0, starts again and rejoins. Every acknowledged
// send is in the database exactly once, no send is stored twice, and every session resumed on the other node with no
// gap or repeat in its event sequence, up to its account's newest event.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/platform/infra/free-port.js';
import { startChildPlatform, type ChildPlatform } from '../support/child-platform.js';
import { call, isolatedInfra, tenantFactory, type TestAccount } from '../support/platform.js';
import { Balancer } from './balancer.js';
import { ResumingSession } from './resuming-session.js';

const rooms = 10;
const membersPerRoom = 4;
const sendsPerRoom = 100;
const sessionsPerAccount = 5;
const long = 600_000;

let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let db: pg.Pool;
let balancer: Balancer;
const dataDirs: string[] = [];
const nodes: Array<{ port: number; dataDir: string; child?: ChildPlatform }> = [];
const sessions: ResumingSession[] = [];
/** Send attempts that got no acknowledgement (no answer, or 5xx) and were made again with the same key. */
let retries = 0;

/** A node on a fixed port and DATA_DIR, so a restart is the same node coming back. */
async function startNode(node: { port: number; dataDir: string; child?: ChildPlatform }): Promise<void> {
  node.child = await startChildPlatform({
    dataDir: node.dataDir,
    chatPort: node.port,
    env: {
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: infra.redisUrl,
      LOG_LEVEL: 'warn',
      SCHEMA_COMPILATION: 'first-use',
      // This machine is shared with other work, which can stall a statement for seconds (as testConfig() allows).
      DATABASE_STATEMENT_TIMEOUT_MS: '30000',
      DATABASE_LOCK_TIMEOUT_MS: '30000',
      DATABASE_CONNECT_TIMEOUT_MS: '30000',
      REDIS_COMMAND_TIMEOUT_MS: '30000',
    },
  });
}

beforeAll(async () => {
  infra = await isolatedInfra();
  db = new pg.Pool({ connectionString: infra.databaseUrl, max: 4 });
  balancer = await Balancer.start();
  for (let i = 0; i < 2; i++) {
    const dataDir = await mkdtemp(join(tmpdir(), 'platform-rolling-'));
    dataDirs.push(dataDir);
    nodes.push({ port: await freePort(), dataDir });
  }
  for (const node of nodes) await startNode(node);
  balancer.route(nodes.map((n) => n.port));
}, long);
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  for (const node of nodes) if (node.child && node.child.proc.exitCode === null) node.child.proc.kill('SIGKILL');
  await balancer?.stop();
  await db?.end();
  await infra?.drop();
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

/** Sends until the platform acknowledges, with one Idempotency-Key for every attempt, as a client must. */
async function sendUntilAcknowledged(sender: TestAccount, roomId: string, text: string, key: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const res = await call(balancer.url, 'POST', `/api/v1/rooms/${roomId}/messages`, {
      token: sender.token,
      body: { text },
      headers: { 'idempotency-key': key },
    }).catch(() => undefined);
    if (res && (res.status === 200 || res.status === 201)) return res.body.data.id as string;
    if (res && res.status < 500) throw new Error(`send ${key} answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (attempt > 200) throw new Error(`send ${key} not acknowledged after ${attempt} attempts`);
    retries++;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The account's newest event seq, from the REST catch-up. */
async function newestSeq(account: TestAccount): Promise<number> {
  const res = await call(balancer.url, 'GET', '/api/v1/me/events?limit=1&after=0', { token: account.token });
  return res.body.data.lastSeq as number;
}

/** The sessions whose last seq is not their account's newest, once all are or after `boundMs`. */
async function sessionsBehind(
  accounts: TestAccount[],
  boundMs: number,
): Promise<Array<{ session: number; lastSeq?: number; newest: number }>> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const newest = await Promise.all(accounts.map(newestSeq));
    const behind = sessions.flatMap((s, i) => {
      const own = newest[Math.floor(i / sessionsPerAccount)]!;
      return s.lastSeq === own ? [] : [{ session: i, ...(s.lastSeq === undefined ? {} : { lastSeq: s.lastSeq }), newest: own }];
    });
    if (behind.length === 0 || Date.now() > deadline) return behind;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('a rolling restart of two nodes', () => {
  test(
    'loses no acknowledged send, stores none twice, and every session resumes without a gap',
    async () => {
      const tenant = await tenantFactory(db, 'chat')();
      const groups: Array<{ roomId: string; members: TestAccount[] }> = [];
      for (let r = 0; r < rooms; r++) {
        const members = await Promise.all(Array.from({ length: membersPerRoom }, () => tenant.account()));
        const res = await call(balancer.url, 'POST', '/api/v1/rooms', {
          token: members[0]!.token,
          body: { type: 'GROUP', name: `Rolling ${r}`, memberIds: members.slice(1).map((m) => m.id) },
        });
        expect(res.status).toBe(201);
        groups.push({ roomId: res.body.data.id, members });
      }
      const accounts = groups.flatMap((g) => g.members);
      const wsUrl = `${balancer.url.replace(/^http/, 'ws')}/ws`;
      for (const account of accounts) {
        for (let s = 0; s < sessionsPerAccount; s++) sessions.push(await ResumingSession.open(wsUrl, account.token));
      }
      expect(sessions).toHaveLength(200);

      // Senders pace themselves so that the sends span both restarts; every member of a room sends in turn.
      let restarting = false;
      let sentDuringRestarts = 0;
      const acknowledged = new Map<string, string>();
      const senders = groups.map(async ({ roomId, members }, r) => {
        for (let i = 0; i < sendsPerRoom; i++) {
          const key = `rolling-${r}-${i}`;
          acknowledged.set(key, await sendUntilAcknowledged(members[i % membersPerRoom]!, roomId, `rolling ${r} ${i}`, key));
          if (restarting) sentDuringRestarts++;
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
      });

      // Each node in turn: out of rotation, SIGTERM, a clean exit after its drain, started again, back in rotation.
      const drains: Array<number | null> = [];
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      restarting = true;
      for (const node of nodes) {
        balancer.route(nodes.filter((n) => n !== node).map((n) => n.port));
        node.child!.proc.kill('SIGTERM');
        drains.push((await node.child!.exited).code);
        await startNode(node);
        balancer.route(nodes.map((n) => n.port));
      }
      restarting = false;
      await Promise.all(senders);

      expect(drains).toEqual([0, 0]);
      expect(sentDuringRestarts).toBeGreaterThan(0);
      // Every acknowledged send stored, exactly once; nothing else stored.
      expect(acknowledged.size).toBe(rooms * sendsPerRoom);
      const { rows } = await db.query<{ id: string; text: string }>(
        "select id::text, text from messages where room_id = any($1::uuid[]) and text like 'rolling %'",
        [groups.map((g) => g.roomId)],
      );
      expect(rows).toHaveLength(rooms * sendsPerRoom);
      expect(new Set(rows.map((row) => row.text)).size).toBe(rooms * sendsPerRoom);
      const stored = new Set(rows.map((row) => row.id));
      expect([...acknowledged.values()].filter((id) => !stored.has(id))).toEqual([]);

      // Every session reconnected at least once, caught up with its account's newest event, never skipped or repeated.
      // Events are recorded by the relays after the commits: the newest seqs are read again until every session has its own.
      expect(await sessionsBehind(accounts, 60_000)).toEqual([]);
      expect(sessions.filter((s) => s.connections < 2)).toHaveLength(0);
      expect(sessions.flatMap((s) => s.breaks)).toEqual([]);
      expect(Math.min(...sessions.map((s) => s.received))).toBeGreaterThanOrEqual(sendsPerRoom);
      const summary = {
        acknowledged: acknowledged.size,
        sentDuringRestarts,
        retries,
        sessions: sessions.length,
        reconnections: sessions.reduce((n, s) => n + s.connections - 1, 0),
        eventsReceived: sessions.reduce((n, s) => n + s.received, 0),
      };
      await writeFile('.data/rolling-restart.json', `${JSON.stringify(summary)}\n`);
    },
    long,
  );
});
