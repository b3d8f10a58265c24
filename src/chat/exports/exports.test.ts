// Personal exports end to end on real PostgreSQL, Redis, queue workers and a media store in a folder of this file:
// the archive is downloaded and unzipped with Python's zipfile, every JSONL file is read and checked against the
// manifest; one running export per account; the link's day; a run resumed after its worker died; removal after 7 days.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { mediaStore, type MediaStore } from '../../core/media/store.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { eventually, expectError } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { runExports } from './job.js';
import { pruneExports } from './prune.js';
import { finishExport } from './queries.js';

const HOUR = 3_600_000;
const start = new Date(Date.now() - 2 * HOUR);
const clock = new ManualClock(start);
let dataDir: string;
let platform: TestPlatform;
let tenant: TestTenant;
let fx: ReturnType<typeof chatFixtures>;
let media: MediaStore;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'exports-test-'));
  platform = await startTestPlatform({ services: ['chat', 'workers'], dataDir }, clock);
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
  media = mediaStore(platform.config.media, dataDir);
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => clock.set(start));

const deps = () => ({ sql: platform.db, clock, media });

async function download(who: TestAccount, path: string): Promise<{ status: number; bytes: Buffer; type: string | null }> {
  const res = await fetch(`${platform.chatUrl}${path}`, { headers: { authorization: `Bearer ${who.token}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

async function doneExport(who: TestAccount, id: string) {
  const view = await eventually(async () => {
    const res = await fx.api(who, 'GET', `/me/exports/${id}`);
    return res.status === 200 && res.body.data.state !== 'queued' && res.body.data.state !== 'running' && res.body.data;
  });
  expect(view.state).toBe('done');
  return view;
}

/** Unzips with Python's zipfile (an implementation other than ours) and returns every file's bytes by name. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const dir = await mkdtemp(join(tmpdir(), 'export-unzip-'));
  try {
    await writeFile(join(dir, 'a.zip'), bytes);
    execFileSync('python3', ['-m', 'zipfile', '-e', join(dir, 'a.zip'), join(dir, 'out')]);
    const names = await readdir(join(dir, 'out'));
    return new Map(await Promise.all(names.map(async (n) => [n, await readFile(join(dir, 'out', n))] as const)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Many messages of the account, written directly so that the export reads several keyset pages. */
async function manyMessages(roomId: string, senderId: string, n: number): Promise<void> {
  await platform.db.query(
    `insert into messages (id, room_id, seq, sender_id, type, text, created_at)
     select gen_random_uuid(), $1, 100000 + g, $2, 'TEXT', 'bulk ' || g, $3::timestamptz + g * interval '1 millisecond'
     from generate_series(1, $4::int) g`,
    [roomId, senderId, start, n],
  );
}

const jsonl = (bytes: Buffer) =>
  bytes
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A file as the manifest should describe it: rows are JSONL lines, and a JSON file is one row. */
function described(name: string, bytes: Buffer): { name: string; rows: number; size: number; sha256: string } {
  const rows = name.endsWith('.jsonl') ? jsonl(bytes).length : 1;
  return { name, rows, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

test('an export downloads, and its manifest lists every file with its rows, size and sha256', async () => {
  const [me, other] = await Promise.all([tenant.account(), tenant.account()]);
  const roomId = await fx.room(me, [other]);
  const sent = await fx.send(me, roomId, 'first words');
  await fx.send(other, roomId, 'not mine');
  await manyMessages(roomId, me.id, 1_203);
  await platform.db.query(`update messages set attachments = $2 where id = $1`, [
    sent.id,
    JSON.stringify([{ id: newId(), fileName: 'a.txt', contentType: 'text/plain', size: 3 }]),
  ]);
  const writes = [
    await fx.api(me, 'POST', `/rooms/${roomId}/messages/${sent.id}/reactions`, { emoji: '👍' }),
    await fx.api(me, 'POST', '/me/saved', { roomId, messageId: sent.id }),
    await fx.api(me, 'PUT', `/me/rooms/${roomId}/draft`, { text: 'unsent' }),
    await fx.api(me, 'POST', '/me/labels', { name: 'Work', color: '#336699' }),
    await fx.api(me, 'PUT', '/me/read-receipts', { shareReadReceipts: false }),
  ];
  expect(writes.map((w) => Math.floor(w.status / 100))).toEqual([2, 2, 2, 2, 2]);

  const created = await fx.api(me, 'POST', '/me/exports');
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe(`/api/v1/me/exports/${created.body.data.id}`);
  const view = await doneExport(me, created.body.data.id);
  expect(view.downloadUrl).toBe(`/api/v1/me/exports/${view.id}/download`);
  expect(new Date(view.expiresAt).getTime() - new Date(view.completedAt).getTime()).toBe(24 * HOUR);

  const got = await download(me, view.downloadUrl);
  expect(got.status).toBe(200);
  expect(got.type).toBe('application/zip');
  expect(got.bytes.length).toBe(view.size);
  const files = await unzip(got.bytes);
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
  expect(manifest.account).toEqual({ id: me.id });
  expect(manifest.exportId).toBe(view.id);
  expect([...files.keys()].filter((n) => n !== 'manifest.json').sort()).toEqual(manifest.files.map((f: { name: string }) => f.name).sort());
  expect(manifest.files.map((f: { name: string }) => f.name).sort()).toEqual(
    ['drafts.jsonl', 'messages.jsonl', 'reactions.jsonl', 'saved.jsonl', 'settings.json'].sort(),
  );
  expect(manifest.files.map((f: { name: string }) => described(f.name, files.get(f.name)!))).toEqual(manifest.files);

  const messages = jsonl(files.get('messages.jsonl')!);
  expect(messages).toHaveLength(1_204);
  expect(new Set(messages.map((m) => m.id)).size).toBe(1_204);
  expect(new Set(messages.map((m) => `${String(m.roomId)} ${String(m.roomName)}`))).toEqual(new Set([`${roomId} Fixture`]));
  const first = messages.find((m) => m.id === sent.id)!;
  expect(first.text).toBe('first words');
  expect(first.attachments).toEqual([expect.objectContaining({ fileName: 'a.txt', url: expect.stringMatching(/^\/media\/files\//) })]);
  expect(jsonl(files.get('reactions.jsonl')!)).toEqual([expect.objectContaining({ messageId: sent.id, roomId, emoji: '👍' })]);
  expect(jsonl(files.get('saved.jsonl')!)).toEqual([expect.objectContaining({ messageId: sent.id, roomId })]);
  expect(jsonl(files.get('drafts.jsonl')!)).toEqual([expect.objectContaining({ roomId, text: 'unsent' })]);
  const settings = JSON.parse(files.get('settings.json')!.toString('utf8'));
  expect(settings.profile.id).toBe(me.id);
  expect(settings.labels.map((l: { name: string }) => l.name)).toEqual(['Work']);
  expect(settings.shareReadReceipts).toBe(false);

  // Someone else's export is unknown to the caller.
  expectError(await fx.api(other, 'GET', `/me/exports/${view.id}`), 404, 'export_not_found');
  expect((await download(other, view.downloadUrl)).status).toBe(404);
  // The link lasts a day after the archive was written.
  clock.set(new Date(new Date(view.completedAt).getTime() + 24 * HOUR + 1_000));
  const later = await fx.api(me, 'GET', `/me/exports/${view.id}`);
  expect(later.body.data.downloadUrl).toBeNull();
  expect((await download(me, view.downloadUrl)).status).toBe(404);
}, 120_000);

test('a second export while one is queued or running is 409 export_running; once done another may start', async () => {
  const me = await tenant.account();
  // No worker takes it while its row is held as running under a lease that has not run out.
  const id = newId();
  await platform.db.query(
    `insert into account_exports (id, account_id, state, created_at, lease_until, attempts) values ($1, $2, 'running', $3, $4, 1)`,
    [id, me.id, start, new Date(start.getTime() + HOUR)],
  );
  expectError(await fx.api(me, 'POST', '/me/exports'), 409, 'export_running');
  expect((await platform.db.query('select count(*)::int as n from account_exports where account_id = $1', [me.id])).rows[0].n).toBe(1);
  await platform.db.query(`update account_exports set state = 'failed', lease_until = null where id = $1`, [id]);
  const again = await fx.api(me, 'POST', '/me/exports');
  expect(again.status).toBe(201);
  await doneExport(me, again.body.data.id);
}, 60_000);

test('an export left running by a worker that died is resumed once its lease runs out, and finished once', async () => {
  const me = await tenant.account();
  const roomId = await fx.room(me);
  await fx.send(me, roomId, 'before the crash');
  const id = newId();
  const deadLease = new Date(start.getTime() - 60_000);
  await platform.db.query(
    `insert into account_exports (id, account_id, state, created_at, lease_until, attempts) values ($1, $2, 'running', $3, $4, 1)`,
    [id, me.id, new Date(start.getTime() - HOUR), deadLease],
  );
  const view = await doneExport(me, id);
  const row = (await platform.db.query('select attempts, completed_at from account_exports where id = $1', [id])).rows[0];
  expect(row.attempts).toBe(2);
  // The dead worker, coming back, can no longer finish it; a further run finds nothing to do.
  expect(await finishExport(platform.db, { id, leaseUntil: deadLease, at: clock.now(), size: 1 })).toBe(false);
  expect(await runExports(deps())).toBe(0);
  const after = (await platform.db.query('select attempts, completed_at, size from account_exports where id = $1', [id])).rows[0];
  expect(after).toEqual({ attempts: 2, completed_at: row.completed_at, size: view.size });
  const files = await unzip((await download(me, view.downloadUrl)).bytes);
  expect(jsonl(files.get('messages.jsonl')!).map((m) => m.text)).toEqual(['before the crash']);
}, 60_000);

test('exports and their archives are removed 7 days after they started', async () => {
  const me = await tenant.account();
  const created = await fx.api(me, 'POST', '/me/exports');
  const view = await doneExport(me, created.body.data.id);
  await expect(media.read(view.id)).resolves.toBeDefined();
  clock.set(new Date(start.getTime() + 7 * 24 * HOUR - 1_000));
  await pruneExports(deps());
  expect((await fx.api(me, 'GET', `/me/exports/${view.id}`)).status).toBe(200);
  clock.set(new Date(start.getTime() + 7 * 24 * HOUR + 1_000));
  expect(await pruneExports(deps())).toBeGreaterThanOrEqual(1);
  expectError(await fx.api(me, 'GET', `/me/exports/${view.id}`), 404, 'export_not_found');
  await expect(
    (async () => {
      const stream = await media.read(view.id);
      for await (const _chunk of stream) void _chunk;
    })(),
  ).rejects.toThrow();
}, 60_000);
