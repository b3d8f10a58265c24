// kill -9 of the platform process (node dist/src/main.js, its own embedded PostgreSQL and redis-server in a temp
// DATA_DIR) in the middle of 1,000 concurrent sends retried by their client with Idempotency-Keys; then a restart.
// Every acknowledged message is there exactly once, none is duplicated; the servers the dead process started do not
// live on; a restart after an unclean stop just works; a start that cannot work says why and names who is in the way.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { eventually } from '../../helpers/expect.js';
import { failingStart, pidInFile, running, startChildPlatform, type ChildPlatform } from '../../support/child-platform.js';
import { tenantFactory, type TestAccount } from '../../support/platform.js';

/** Starts of the platform with its own PostgreSQL take seconds on a loaded machine. */
const long = 240_000;

const sends = 1000;
let dataDir: string;
const children: ChildPlatform[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'platform-crash-'));
});
afterAll(async () => {
  for (const c of children) {
    if (c.proc.exitCode === null && c.proc.signalCode === null) {
      c.proc.kill('SIGTERM');
      await c.exited;
    }
  }
  await rm(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}, chatPort?: number): Promise<ChildPlatform> {
  const child = await startChildPlatform({ dataDir, env: { OUTBOX_POLL_MS: '1000', ...env }, ...(chatPort ? { chatPort } : {}) });
  children.push(child);
  return child;
}

const postgresPid = () => pidInFile(join(dataDir, 'postgres', 'postmaster.pid'));
const redisPid = () => pidInFile(join(dataDir, 'redis', 'redis-server.pid'));

async function killHard(child: ChildPlatform): Promise<void> {
  child.proc.kill('SIGKILL');
  await child.exited;
}

/** One send, retried with the same Idempotency-Key until it is acknowledged (201). */
async function sendUntilAcknowledged(url: () => string, who: TestAccount, roomId: string, i: number): Promise<string> {
  for (let attempt = 0; attempt < 2000; attempt++) {
    try {
      const res = await fetch(`${url()}/api/v1/rooms/${roomId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json', 'idempotency-key': `send-${i}` },
        body: JSON.stringify({ text: `message ${i}` }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json()) as { data?: { id: string } };
      if (res.status === 201 && body.data) return body.data.id;
      // 503 while the database or the process is coming back: retry; anything else is a failure of the test.
      if (res.status !== 503) throw new Error(`send ${i} answered ${res.status}: ${JSON.stringify(body)}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith(`send ${i} answered`)) throw err;
      // Connection refused or reset, or no answer: the process is gone; try again.
    }
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 100));
  }
  throw new Error(`send ${i} was never acknowledged`);
}

describe('kill -9 during 1,000 concurrent sends', () => {
  test(
    'after a restart every acknowledged message is present exactly once and none is duplicated',
    async () => {
      const first = await start();
      const port = Number(new URL(first.chatUrl).port);
      const { databaseUrl } = first.runtime();
      const oldServers = { postgres: postgresPid()!, redis: redisPid()!, watchdog: first.runtime().watchdogPid! };
      for (const pid of Object.values(oldServers)) expect(running(pid)).toBe(true);

      let db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
      const tenant = await tenantFactory(db, 'chat')();
      const alice = await tenant.account();
      const created = await fetch(`${first.chatUrl}/api/v1/rooms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'GROUP', name: 'Crash' }),
      });
      const roomId = ((await created.json()) as { data: { id: string } }).data.id;
      await db.end();

      const acknowledged = new Map<number, string>();
      const all = Promise.all(
        Array.from({ length: sends }, (_, i) =>
          sendUntilAcknowledged(() => first.chatUrl, alice, roomId, i).then((id) => {
            acknowledged.set(i, id);
          }),
        ),
      );
      await eventually(async () => acknowledged.size >= 100, 60_000, 5);
      await killHard(first);
      const acknowledgedBeforeKill = new Map(acknowledged);
      expect(acknowledgedBeforeKill.size).toBeLessThan(sends);

      // The servers the killed process started end with it (its watchdog stops them), and the watchdog too.
      await eventually(async () => Object.values(oldServers).every((pid) => !running(pid)), 30_000, 100);

      const second = await start({}, port);
      expect(second.output()).not.toContain('left running');
      await all;
      expect(acknowledged.size).toBe(sends);
      for (const [i, id] of acknowledgedBeforeKill) expect(acknowledged.get(i)).toBe(id);

      db = new pg.Pool({ connectionString: second.runtime().databaseUrl, max: 2 });
      try {
        const { rows } = await db.query<{ id: string; client_message_id: string | null; text: string; seq: string }>(
          'select id, client_message_id, text, seq from messages where room_id = $1',
          [roomId],
        );
        // Exactly the acknowledged messages: no loss, no duplicate, no message without its key.
        expect(rows.length).toBe(sends);
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const [i, id] of acknowledged) {
          expect(byId.get(id)).toMatchObject({ client_message_id: `send-${i}`, text: `message ${i}` });
        }
        expect(new Set(rows.map((r) => r.client_message_id)).size).toBe(sends);
        expect(new Set(rows.map((r) => r.seq)).size).toBe(sends);
        // One message.created event per message, each published by a relay of the restarted process.
        const events = await db.query<{ n: string; unpublished: string }>(
          "select count(*) as n, count(*) filter (where published_at is null) as unpublished from outbox where topic = 'message.created' and payload->>'roomId' = $1",
          [roomId],
        );
        expect(Number(events.rows[0]!.n)).toBe(sends);
        await eventually(
          async () =>
            Number(
              (await db.query("select count(*) as n from outbox where published_at is null and payload->>'roomId' = $1", [roomId])).rows[0]
                .n,
            ) === 0,
          20_000,
          200,
        );
      } finally {
        await db.end();
      }

      // A clean stop leaves nothing running and no pid files behind.
      const servers = [postgresPid()!, redisPid()!, second.runtime().watchdogPid!];
      second.proc.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
      await eventually(async () => servers.every((pid) => !running(pid)), 20_000, 100);
      expect(postgresPid()).toBeUndefined();
      expect(redisPid()).toBeUndefined();
    },
    long,
  );

  test(
    'servers left running by a process killed together with its watchdog are stopped at the next start, which names them',
    async () => {
      const first = await start();
      const left = { postgres: postgresPid()!, redis: redisPid()! };
      process.kill(first.runtime().watchdogPid!, 'SIGKILL');
      await killHard(first);
      expect([running(left.postgres), running(left.redis)]).toEqual([true, true]);

      const second = await start();
      // Named at the default log level, with their pids.
      expect(second.output()).toContain(`stopping a PostgreSQL (pid ${left.postgres}) left running`);
      expect(second.output()).toContain(`stopping a redis-server (pid ${left.redis}) left running`);
      expect([running(left.postgres), running(left.redis)]).toEqual([false, false]);
      const ready = await fetch(`${second.chatUrl}/readyz`);
      expect(ready.status).toBe(200);

      // While that process runs, another start on the same DATA_DIR is refused, naming it and its server.
      const refused = await failingStart({ dataDir });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`DATA_DIR ${dataDir} is in use: platform process ${second.pid}`);
      expect(refused.output).toContain(`PostgreSQL (pid ${postgresPid()})`);
      expect((await fetch(`${second.chatUrl}/readyz`)).status).toBe(200);

      second.proc.kill('SIGTERM');
      await second.exited;
    },
    long,
  );

  test(
    'a start that fails names the cause at the default log level',
    async () => {
      // A data folder of another PostgreSQL major version.
      await writeFile(join(dataDir, 'postgres', 'PG_VERSION'), '9\n');
      const failed = await failingStart({ dataDir });
      expect(failed.code).toBe(1);
      expect(failed.output).toContain('Failed to start: Error: PostgreSQL in');
      expect(failed.output).toMatch(/incompatible|version/i);
      expect(failed.output).not.toContain('unknown error');
      // Nothing it started lives on.
      expect(failed.output).not.toContain('local redis-server started');
      expect(postgresPid()).toBeUndefined();
    },
    long,
  );
});
