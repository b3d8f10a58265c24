// Reads on a real streaming replica: a primary of the suite's own (embedded PostgreSQL) and a hot standby made from
// a base backup of it, with a platform that lists the standby in DATABASE_READ_URLS.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../src/platform/infra/embedded-postgres.js';
import { startStreamingReplica, type StreamingReplica } from '../../../src/platform/infra/streaming-replica.js';
import { routedReads } from '../../../src/platform/metrics/replicas.js';
import { metricsRegistry } from '../../../src/platform/metrics/registry.js';
import { chatFixtures } from '../../helpers/chat-fixtures.js';
import { keyHeaders } from '../../helpers/partner-expect.js';
import { svcHeaders } from '../../helpers/workspace-expect.js';
import { testWorkspace } from '../../support/partner.js';
import { svcWorkspace } from '../../support/workspace.js';
import { call, isolatedInfra, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';

let dir: string;
let primary: EmbeddedDatabase;
let replica: StreamingReplica;
let replicaAdmin: pg.Pool;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let tenant: TestTenant;
let fixtures: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-replicas-'));
  // As root both servers run as a dedicated user, which must be able to enter their folders' parent.
  await chmod(dir, 0o755);
  primary = await startEmbeddedPostgres(join(dir, 'primary'));
  replica = await startStreamingReplica(primary.url, join(dir, 'primary', 'postgres'), join(dir, 'replica'));
  replicaAdmin = adminPool(replica.url);
  infra = await isolatedInfra();
  platform = await startTestPlatform({
    databaseUrl: primary.url,
    redisUrl: infra.redisUrl,
    // No queue workers: the reads under test need none, and the platform starts sooner.
    services: ['chat', 'partner', 'workspace'],
    readReplicas: { urls: [replica.url], pollMs: 50, maxLagMs: 15_000, maxLagBytes: 64 * 1024 * 1024 },
  });
  // The suite stops both servers at its end: a connection they close while the pool lets go of it is expected.
  platform.db.on('error', () => undefined);
  tenant = await platform.tenant();
  fixtures = chatFixtures(platform, tenant);
});

afterAll(async () => {
  await platform?.stop();
  await replicaAdmin?.end();
  await replica?.stop();
  await primary?.stop();
  await infra?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A pool on a server this suite stops and starts: a connection the server ends is dropped, not an error. */
function adminPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  return pool;
}

const routed = async (target: string) => (await routedReads.get()).values.find((v) => v.labels.target === target)?.value ?? 0;

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (await check()) return;
  throw new Error(`timed out waiting until ${what}`);
}

const standby = () => platform.reads!.replicas.replicas[0]!;
const page = (who: TestAccount, roomId: string) =>
  call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=100`, { token: who.token });
const history = async (who: TestAccount, roomId: string): Promise<string[]> => {
  const res = await page(who, roomId);
  expect(res.status).toBe(200);
  return res.body.data.map((m: { id: string }) => m.id);
};
/** The page as a reader without writes of their own may see it: from a replica that may not have the room yet. */
const seen = async (who: TestAccount, roomId: string): Promise<string[] | null> => {
  const res = await page(who, roomId);
  return res.status === 200 ? res.body.data.map((m: { id: string }) => m.id) : null;
};

test('the standby streams from the primary and is in rotation', async () => {
  const { rows } = await replicaAdmin.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
  expect(rows[0]!.standby).toBe(true);
  await until('the standby is in rotation', () => standby().inRotation);
  const scrape = await metricsRegistry.metrics();
  expect(scrape).toContain(`platform_db_replica_in_rotation{replica="${standby().name}"} 1`);
  expect(scrape).toMatch(new RegExp(`platform_db_replica_lag_bytes\\{replica="${standby().name}"\\} \\d+`));
});

test("a user's own new message is always in their next history page, while others read from the replica", async () => {
  const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
  const roomId = await fixtures.room(alice, [bob]);
  const toReplica = await routed('replica');
  for (let i = 0; i < 40; i++) {
    const sent = await fixtures.send(alice, roomId, `message ${i}`);
    expect(await history(alice, roomId)).toContain(sent.id);
  }
  // Bob never wrote: his pages come from the replica.
  await until('bob reads the room on the replica', async () => (await seen(bob, roomId)) !== null);
  expect(await routed('replica')).toBeGreaterThan(toReplica);
});

test('with replay paused the writer reads on the primary, a reader who did not write sees the replica, and a read inside a write stays on the primary', async () => {
  const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
  const roomId = await fixtures.room(alice, [bob]);
  await until('the room is on the replica', async () => (await seen(bob, roomId))?.length === 0);
  await replicaAdmin.query('select pg_wal_replay_pause()');
  try {
    const behind = await routed('primary_behind');
    // A new room and a message in it: the send checks membership of a room the paused replica does not have.
    const second = await fixtures.room(alice, [bob]);
    const sent = await fixtures.send(alice, second, 'while paused');
    expect(await history(alice, second)).toEqual([sent.id]);
    expect(await routed('primary_behind')).toBeGreaterThan(behind);
    const first = await fixtures.send(alice, roomId, 'in the old room');
    expect(await history(alice, roomId)).toEqual([first.id]);
    // Bob has no writes of his own: the replica, which has the room but not the message, answers him.
    expect(standby().inRotation).toBe(true);
    expect(await history(bob, roomId)).toEqual([]);
  } finally {
    await replicaAdmin.query('select pg_wal_replay_resume()');
  }
  await until('the replica replays the message', async () => (await seen(bob, roomId))?.length === 1);
});

test('reads shift to the primary while the replica is stopped and come back when it is again', async () => {
  const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
  const roomId = await fixtures.room(alice, [bob]);
  const sent = await fixtures.send(alice, roomId, 'before the stop');
  await until('the replica has the message', async () => (await seen(bob, roomId))?.includes(sent.id) === true);
  await replicaAdmin.end();
  await replica.stop();
  try {
    // Right after the stop (before a poll notices) a read that meets the stopped replica is answered by the primary.
    expect(await history(bob, roomId)).toEqual([sent.id]);
    await until('the replica is out of rotation', () => !standby().inRotation);
    const toReplica = await routed('replica');
    const noReplica = await routed('primary_no_replica');
    const later = await fixtures.send(alice, roomId, 'while stopped');
    for (let i = 0; i < 5; i++) expect(await history(bob, roomId)).toEqual([sent.id, later.id]);
    expect(await routed('replica')).toBe(toReplica);
    expect(await routed('primary_no_replica')).toBeGreaterThanOrEqual(noReplica + 5);
  } finally {
    await replica.start();
    replicaAdmin = adminPool(replica.url);
  }
  await until('the replica is back in rotation', () => standby().inRotation);
  const toReplica = await routed('replica');
  await until('the replica has caught up', async () => (await seen(bob, roomId))?.length === 2);
  expect(await routed('replica')).toBeGreaterThan(toReplica);
});

/** A partner CRM call with an API key (and an Idempotency-Key on a POST). */
const partner = (method: string, path: string, key: string, body?: unknown) =>
  call(platform.partnerUrl, method, `/api/v1/partner/crm${path}`, {
    headers: keyHeaders(key, method === 'POST' ? crypto.randomUUID() : undefined),
    body,
  });
/** A workspace call with a svc_ key. */
const svc = (method: string, path: string, key: string, body?: unknown) =>
  call(platform.workspaceUrl, method, `/api/v1${path}`, { headers: svcHeaders(key), body });

/** Whether both keys list contacts (200): the partner key and then the svc_ key. */
async function bothListContacts(partnerKey: string, svcKey: string): Promise<boolean> {
  return (await partner('GET', '/contacts', partnerKey)).status === 200 && (await svc('GET', '/contacts', svcKey)).status === 200;
}

test('partner and workspace keys read their own new records; another key of the workspace reads the paused replica', async () => {
  const partnerWs = await testWorkspace(platform);
  const [writer, reader] = await Promise.all([partnerWs.key(['crm_contacts:*']), partnerWs.key(['crm_contacts:*'])]);
  const svcWs = await svcWorkspace(platform);
  const [svcWriter, svcReader] = await Promise.all([svcWs.key(['crm.*']), svcWs.key(['crm.*'])]);
  await until('the standby is in rotation', () => standby().inRotation);
  await until('the replica has both workspaces', () => bothListContacts(reader.key, svcReader.key));
  await replicaAdmin.query('select pg_wal_replay_pause()');
  try {
    const contact = await partner('POST', '/contacts', writer.key, { full_name: 'Ada' });
    expect(contact.status).toBe(201);
    const own = await partner('GET', `/contacts/${contact.body.id}`, writer.key);
    expect(own.status).toBe(200);
    expect((await partner('GET', '/contacts', writer.key)).body.data.map((c: { id: string }) => c.id)).toContain(contact.body.id);
    expect((await partner('GET', `/contacts/${contact.body.id}`, reader.key)).status).toBe(404);

    const record = await svc('POST', '/contacts', svcWriter.key, { name: 'Grace' });
    expect(record.status).toBe(201);
    expect((await svc('GET', `/contacts/${record.body.id}`, svcWriter.key)).status).toBe(200);
    expect((await svc('GET', '/contacts', svcWriter.key)).body.items.map((c: { id: string }) => c.id)).toContain(record.body.id);
    expect((await svc('GET', `/contacts/${record.body.id}`, svcReader.key)).status).toBe(404);
  } finally {
    await replicaAdmin.query('select pg_wal_replay_resume()');
  }
});
