// Upload sessions, the tus media service on the chat listener (real uploads with tus-js-client and raw tus requests),
// attachments, downloads, recall and cleanup; on a database and a data folder of their own, with an injected clock.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tus from 'tus-js-client';
import { ConfigError, loadConfig } from '../../platform/config/index.js';
import { ManualClock } from '../../platform/clock.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, eventually, expectError, expectOk } from '../../../test/helpers/expect.js';
import { isolatedInfra, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

const HOUR = 3_600_000;
// Behind the real time, so tokens minted now stay valid while the clock moves a few hours.
const start = new Date(Date.now() - 2 * HOUR);
const clock = new ManualClock(start);
const MAX = 1_000_000;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let dataDir: string;
let platform: TestPlatform;
let tenant: TestTenant;
let fx: ReturnType<typeof chatFixtures>;

// A database of its own is created and migrated first: slow on a busy machine.
beforeAll(async () => {
  infra = await isolatedInfra();
  dataDir = await mkdtemp(join(tmpdir(), 'uploads-test-'));
  platform = await startTestPlatform(
    {
      services: ['chat'],
      databaseUrl: infra.databaseUrl,
      redisUrl: infra.redisUrl,
      dataDir,
      uploadMaxBytes: MAX,
      uploadAllowedTypes: ['image/*', 'text/plain'],
      uploadSessionTtlSeconds: 3600,
    },
    clock,
  );
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  await infra?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => clock.set(start));

interface Session {
  uploadId: string;
  uploadUrl: string;
  headers: Record<string, string>;
  maxSize: number;
  expiresAt: string;
}

async function session(who: TestAccount, body: { fileName?: string; contentType?: string; size: number }): Promise<Session> {
  const res = await fx.api(who, 'POST', '/files/upload-session', { fileName: 'notes.txt', contentType: 'text/plain', ...body });
  expectOk(res);
  return res.body.data;
}

const bytes = (n: number, seed = 7) => Buffer.from(Array.from({ length: n }, (_, i) => (i * seed) % 251));

/** A whole upload with tus-js-client, in chunks (several PATCH requests). */
function tusUpload(s: Session, data: Buffer, options: Partial<tus.UploadOptions> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(data, {
      endpoint: s.uploadUrl,
      headers: s.headers,
      chunkSize: 64 * 1024,
      retryDelays: [],
      metadata: { filename: 'ignored.txt', filetype: 'text/plain' },
      onError: reject,
      onSuccess: () => resolve(upload.url!),
      ...options,
    });
    upload.start();
  });
}

/** A raw tus request. */
const tusFetch = (url: string, method: string, headers: Record<string, string>, body?: Buffer) =>
  fetch(url, { method, headers: { 'Tus-Resumable': '1.0.0', ...headers }, ...(body ? { body } : {}) });

const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

async function completed(who: TestAccount, data: Buffer, contentType = 'text/plain', fileName = 'notes.txt'): Promise<string> {
  const s = await session(who, { size: data.length, contentType, fileName });
  await tusUpload(s, data, { metadata: { filetype: contentType } });
  return s.uploadId;
}

const download = (who: TestAccount, url: string) =>
  fetch(`${platform.chatUrl}${url}`, { headers: { authorization: `Bearer ${who.token}` } });
/** The status of a download, its body read to the end (an unread body would keep the connection busy). */
async function downloadStatus(who: TestAccount, url: string): Promise<number> {
  const res = await download(who, url);
  await res.arrayBuffer();
  return res.status;
}

describe('upload sessions', () => {
  test('what a client needs to upload: a tus endpoint, the headers to send, the limits and the expiry', async () => {
    const alice = await tenant.account();
    const res = await fx.api(alice, 'POST', '/files/upload-session', {
      fileName: '  Holiday photo.JPG ',
      contentType: 'Image/JPEG',
      size: 1234,
    });
    expectOk(res, 200);
    const s = res.body.data;
    expect(s).toEqual({
      uploadId: expect.any(String),
      uploadUrl: `${platform.chatUrl}/media/uploads`,
      protocol: 'tus/1.0.0',
      headers: { 'Upload-Token': expect.stringMatching(/^upt_[A-Za-z0-9_-]{43}$/), 'Tus-Resumable': '1.0.0' },
      maxSize: 1234,
      expiresAt: new Date(start.getTime() + HOUR).toISOString(),
      fileName: 'Holiday photo.JPG',
      contentType: 'image/jpeg',
      size: 1234,
    });
    const { rows } = await platform.db.query('select owner_id, status, declared_size, token_hash from uploads where id = $1', [s.uploadId]);
    expect(rows[0]).toMatchObject({ owner_id: alice.id, status: 'PENDING', declared_size: 1234 });
    // Only a hash of the token is kept.
    expect(rows[0].token_hash.toString('utf8')).not.toContain(s.headers['Upload-Token']);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'upload.created' and payload->>'uploadId' = $1", [
        s.uploadId,
      ]),
    ).toBe(1);
  });

  test('oversize or a type outside the allowed ones is 400 and stores nothing', async () => {
    const alice = await tenant.account();
    expectError(
      await fx.api(alice, 'POST', '/files/upload-session', { fileName: 'big.png', contentType: 'image/png', size: MAX + 1 }),
      400,
      'validation_failed',
      'body.size',
    );
    expectError(
      await fx.api(alice, 'POST', '/files/upload-session', { fileName: 'x.exe', contentType: 'application/x-msdownload', size: 10 }),
      400,
      'validation_failed',
      'body.contentType',
    );
    expectError(
      await fx.api(alice, 'POST', '/files/upload-session', { fileName: 'x.txt', contentType: 'text/plain; charset=utf-8', size: 10 }),
      400,
      'validation_failed',
      'body.contentType',
    );
    expectError(
      await fx.api(alice, 'POST', '/files/upload-session', { fileName: '   ', contentType: 'text/plain', size: 10 }),
      400,
      'validation_failed',
      'body.fileName',
    );
    expectError(
      await fx.api(alice, 'POST', '/files/upload-session', { fileName: 'x.txt', contentType: 'text/plain', size: -1 }),
      400,
      'validation_failed',
      'body.size',
    );
    expect(await count(platform.db, 'select count(*) as n from uploads where owner_id = $1', [alice.id])).toBe(0);
  });
});

describe('the tus media service', () => {
  test('a real tus upload in chunks completes the session; the bytes are stored under DATA_DIR', async () => {
    const alice = await tenant.account();
    const data = bytes(200_000);
    const s = await session(alice, { size: data.length });
    const url = await tusUpload(s, data);
    expect(url).toBe(`${platform.chatUrl}/media/uploads/${s.uploadId}`);
    const { rows } = await platform.db.query('select status, size, completed_at from uploads where id = $1', [s.uploadId]);
    expect(rows[0]).toMatchObject({ status: 'COMPLETE', size: data.length, completed_at: start });
    expect((await readFile(join(dataDir, 'uploads', s.uploadId))).equals(data)).toBe(true);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'upload.completed' and payload->>'uploadId' = $1", [
        s.uploadId,
      ]),
    ).toBe(1);
  });

  test('an interrupted upload resumes where it stopped', async () => {
    const alice = await tenant.account();
    const data = bytes(150_000, 13);
    const s = await session(alice, { size: data.length });
    const created = await tusFetch(s.uploadUrl, 'POST', { ...s.headers, 'Upload-Length': String(data.length) });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const first = await tusFetch(
      location,
      'PATCH',
      { ...s.headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      data.subarray(0, 50_000),
    );
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe('50000');
    // A new client picks the upload up by its URL: HEAD finds the offset, PATCH sends the rest.
    await tusUpload(s, data, { endpoint: undefined, uploadUrl: location });
    expect((await readFile(join(dataDir, 'uploads', s.uploadId))).equals(data)).toBe(true);
    expect(await count(platform.db, "select count(*) as n from uploads where id = $1 and status = 'COMPLETE'", [s.uploadId])).toBe(1);
  });

  test('the media service refuses what the session does not allow', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const s = await session(alice, { size: 100 });
    const create = (headers: Record<string, string>) => tusFetch(s.uploadUrl, 'POST', headers);
    expect((await create({ 'Upload-Length': '100' })).status).toBe(401);
    expect((await create({ 'Upload-Token': 'upt_forged', 'Upload-Length': '100' })).status).toBe(401);
    // Oversize for the session, and for the service.
    expect((await create({ ...s.headers, 'Upload-Length': '101' })).status).toBe(413);
    expect((await create({ ...s.headers, 'Upload-Length': String(MAX + 1) })).status).toBe(413);
    expect((await create({ ...s.headers, 'Upload-Defer-Length': '1' })).status).toBe(400);
    expect(
      (await create({ ...s.headers, 'Upload-Length': '100', 'Upload-Metadata': metadata({ filetype: 'application/x-msdownload' }) }))
        .status,
    ).toBe(415);
    expect(await count(platform.db, "select count(*) as n from uploads where id = $1 and status = 'PENDING'", [s.uploadId])).toBe(1);
    expect(existsSync(join(dataDir, 'uploads', s.uploadId))).toBe(false);

    const ok = await create({ ...s.headers, 'Upload-Length': '100' });
    expect(ok.status).toBe(201);
    expect((await create({ ...s.headers, 'Upload-Length': '100' })).status).toBe(409);
    // Another session's token does not open this upload.
    const other = await session(bob, { size: 100 });
    const location = ok.headers.get('location')!;
    const patch = (headers: Record<string, string>, body: Buffer, offset = 0) =>
      tusFetch(location, 'PATCH', { ...headers, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, body);
    expect((await patch(other.headers, bytes(10))).status).toBe(404);
    expect((await tusFetch(location, 'HEAD', other.headers)).status).toBe(404);
    // More bytes than the upload's length are refused.
    expect((await patch(s.headers, bytes(101))).status).toBe(413);
    expect((await patch(s.headers, bytes(100))).status).toBe(204);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'upload.started' and payload->>'uploadId' = $1", [
        s.uploadId,
      ]),
    ).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from uploads where id = $1 and status = 'COMPLETE' and size = 100", [s.uploadId]),
    ).toBe(1);
    // A finished upload cannot be terminated.
    expect((await tusFetch(location, 'DELETE', s.headers)).status).toBe(400);
  });

  test('an unfinished upload can be terminated and created again under the same session', async () => {
    const alice = await tenant.account();
    const s = await session(alice, { size: 100 });
    const first = await tusFetch(s.uploadUrl, 'POST', { ...s.headers, 'Upload-Length': '100' });
    const location = first.headers.get('location')!;
    expect(
      (
        await tusFetch(
          location,
          'PATCH',
          { ...s.headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
          bytes(40),
        )
      ).status,
    ).toBe(204);
    expect((await tusFetch(location, 'DELETE', s.headers)).status).toBe(204);
    expect(existsSync(join(dataDir, 'uploads', s.uploadId))).toBe(false);
    await eventually(
      async () => (await count(platform.db, "select count(*) as n from uploads where id = $1 and status = 'PENDING'", [s.uploadId])) === 1,
    );
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'upload.terminated' and payload->>'uploadId' = $1", [
        s.uploadId,
      ]),
    ).toBe(1);
    await tusUpload(s, bytes(100));
    expect(await count(platform.db, "select count(*) as n from uploads where id = $1 and status = 'COMPLETE'", [s.uploadId])).toBe(1);
  });

  test('an expired session is gone for the media service (410)', async () => {
    const alice = await tenant.account();
    const s = await session(alice, { size: 100 });
    const ok = await tusFetch(s.uploadUrl, 'POST', { ...s.headers, 'Upload-Length': '100' });
    expect(ok.status).toBe(201);
    clock.advance(HOUR);
    const patch = await tusFetch(
      ok.headers.get('location')!,
      'PATCH',
      { ...s.headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      bytes(100),
    );
    expect(patch.status).toBe(410);
    const fresh = await session(alice, { size: 10 });
    clock.advance(HOUR);
    expect((await tusFetch(fresh.uploadUrl, 'POST', { ...fresh.headers, 'Upload-Length': '10' })).status).toBe(410);
  });
});

describe('attachments', () => {
  test('a message carries completed uploads; members download them; outsiders get 404', async () => {
    const { roomId, owner, member, outsider } = await fx.cast();
    const text = bytes(5000);
    const image = bytes(7000, 3);
    const [a, b] = [await completed(member, text), await completed(member, image, 'image/png', 'chart.png')];
    const res = await fx.api(member, 'POST', `/rooms/${roomId}/messages`, {
      text: 'two files',
      attachments: [{ uploadId: b }, { uploadId: a }],
    });
    expectOk(res, 201);
    expect(res.body.data.attachments).toEqual([
      { id: b, fileName: 'chart.png', contentType: 'image/png', size: 7000, url: `/media/files/${b}` },
      { id: a, fileName: 'notes.txt', contentType: 'text/plain', size: 5000, url: `/media/files/${a}` },
    ]);
    const got = await fx.api(owner, 'GET', `/rooms/${roomId}/messages/${res.body.data.id}`);
    expect(got.body.data.attachments).toEqual(res.body.data.attachments);
    const page = await fx.api(owner, 'GET', `/rooms/${roomId}/messages`);
    expect(page.body.data.at(-1).attachments).toHaveLength(2);

    const file = await download(owner, `/media/files/${b}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(image)).toBe(true);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="chart.png"; filename*=UTF-8''chart.png`);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expectError(await wrap(download(outsider, `/media/files/${b}`)), 404, 'file_not_found');
    const anonymous = await fetch(`${platform.chatUrl}/media/files/${b}`);
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
    expectError(await wrap(download(owner, '/media/files/not-a-uuid')), 404, 'file_not_found');
    // A message without files says so.
    expect((await fx.api(owner, 'POST', `/rooms/${roomId}/messages`, { text: 'plain' })).body.data.attachments).toEqual([]);
  });

  test('an upload is sent once, by its owner, when complete; a refused send stores nothing', async () => {
    const { roomId, owner, member } = await fx.cast();
    const used = await completed(member, bytes(10));
    expectOk(await fx.api(member, 'POST', `/rooms/${roomId}/messages`, { text: 'first', attachments: [{ uploadId: used }] }), 201);
    const fresh = await completed(member, bytes(20));
    const pending = (await session(member, { size: 10 })).uploadId;
    const owners = await completed(owner, bytes(30));
    const before = await roomState(roomId);
    const send = (attachments: Array<{ uploadId: string }>) =>
      fx.api(member, 'POST', `/rooms/${roomId}/messages`, { text: 'again', attachments });
    expectError(await send([{ uploadId: fresh }, { uploadId: used }]), 409, 'upload_already_attached', 'body.attachments.1.uploadId');
    expectError(await send([{ uploadId: pending }]), 409, 'upload_incomplete', 'body.attachments.0.uploadId');
    expectError(await send([{ uploadId: owners }]), 404, 'upload_not_found', 'body.attachments.0.uploadId');
    expectError(await send([{ uploadId: '5d0c8a9e-4f0b-4c55-9a57-8b7f0c6e2d31' }]), 404, 'upload_not_found');
    expectError(await send([{ uploadId: fresh }, { uploadId: fresh.toUpperCase() }]), 400, 'validation_failed');
    expectError(await send([]), 400, 'validation_failed', 'body.attachments');
    expect(await roomState(roomId)).toEqual(before);
    expect(await count(platform.db, 'select count(*) as n from uploads where id = $1 and attached_at is null', [fresh])).toBe(1);
    // Expired: no longer sendable.
    clock.advance(HOUR);
    expectError(await send([{ uploadId: fresh }]), 404, 'upload_not_found');
  });

  test('a thread reply and a retried send carry their files; a forward copies them to another room', async () => {
    const { roomId, owner, member, outsider } = await fx.cast();
    const root = await fx.send(owner, roomId, 'root');
    const f = await completed(member, bytes(99));
    const body = { text: 'reply with file', threadRootId: root.id, attachments: [{ uploadId: f }], clientMessageId: 'r-1' };
    const reply = await fx.api(member, 'POST', `/rooms/${roomId}/messages`, body);
    expectOk(reply, 201);
    expect(reply.body.data).toMatchObject({ threadRootId: root.id, attachments: [expect.objectContaining({ id: f, size: 99 })] });
    const retry = await fx.api(member, 'POST', `/rooms/${roomId}/messages`, body);
    expect(retry.body.data.id).toBe(reply.body.data.id);
    const g = await completed(member, bytes(55));
    const top = { text: 'top with file', attachments: [{ uploadId: g }], clientMessageId: 't-1' };
    const first = await fx.api(member, 'POST', `/rooms/${roomId}/messages`, top);
    expect((await fx.api(member, 'POST', `/rooms/${roomId}/messages`, top)).body.data).toEqual(first.body.data);

    const target = await fx.room(outsider, [owner]);
    const fwd = await fx.api(owner, 'POST', `/rooms/${target}/forward`, { fromRoomId: roomId, messageIds: [first.body.data.id] });
    expectOk(fwd);
    expect(fwd.body.data[0].attachments).toEqual(first.body.data.attachments);
    expect(await downloadStatus(outsider, `/media/files/${g}`)).toBe(200);
  });

  test('a recalled message no longer shows or serves its files; the cleanup removes files nothing carries', async () => {
    const { roomId, owner, member, outsider } = await fx.cast();
    const only = await completed(member, bytes(40));
    const shared = await completed(member, bytes(41));
    const m1 = (await fx.api(member, 'POST', `/rooms/${roomId}/messages`, { text: 'only', attachments: [{ uploadId: only }] })).body.data;
    const m2 = (await fx.api(member, 'POST', `/rooms/${roomId}/messages`, { text: 'shared', attachments: [{ uploadId: shared }] })).body
      .data;
    const elsewhere = await fx.room(outsider, [owner]);
    expectOk(await fx.api(owner, 'POST', `/rooms/${elsewhere}/forward`, { fromRoomId: roomId, messageIds: [m2.id] }));

    const recalled = await fx.api(member, 'POST', `/rooms/${roomId}/messages/${m1.id}/recall`);
    expect(recalled.body.data.attachments).toEqual([]);
    expect((await fx.api(owner, 'GET', `/rooms/${roomId}/messages/${m1.id}`)).body.data.attachments).toEqual([]);
    expectError(await wrap(download(owner, `/media/files/${only}`)), 404, 'file_not_found');
    expectOk(await fx.api(member, 'POST', `/rooms/${roomId}/messages/${m2.id}/recall`));
    // The member is in no other room carrying it; the owner also reads the forwarded copy.
    expectError(await wrap(download(member, `/media/files/${shared}`)), 404, 'file_not_found');
    expect(await downloadStatus(owner, `/media/files/${shared}`)).toBe(200);
    // The forwarded copy still carries the shared file in the other room.
    expect(await downloadStatus(outsider, `/media/files/${shared}`)).toBe(200);

    await platform.cleanupUploads();
    expect(existsSync(join(dataDir, 'uploads', only))).toBe(false);
    expect(existsSync(join(dataDir, 'uploads', shared))).toBe(true);
    expect(await count(platform.db, 'select count(*) as n from uploads where id = $1 and purged_at is not null', [only])).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'upload.purged' and payload->>'uploadId' = $1", [only]),
    ).toBe(1);
  });

  test('sessions not sent by their expiry are deleted, rows and files; sent ones stay', async () => {
    const alice = await tenant.account();
    const { roomId } = await fx.cast();
    await platform.db.query(`insert into room_members (room_id, account_id, role, joined_at) values ($1, $2, 'MEMBER', now())`, [
      roomId,
      alice.id,
    ]);
    const pending = (await session(alice, { size: 10 })).uploadId;
    const unsent = await completed(alice, bytes(12));
    const sent = await completed(alice, bytes(13));
    expectOk(await fx.api(alice, 'POST', `/rooms/${roomId}/messages`, { text: 'kept', attachments: [{ uploadId: sent }] }), 201);
    clock.advance(HOUR - 1);
    expect(await platform.cleanupUploads()).toMatchObject({ expired: 0 });
    clock.advance(1);
    expect((await platform.cleanupUploads()).expired).toBeGreaterThanOrEqual(2);
    expect(await count(platform.db, 'select count(*) as n from uploads where id = any($1::uuid[])', [[pending, unsent]])).toBe(0);
    expect(existsSync(join(dataDir, 'uploads', unsent))).toBe(false);
    expect(existsSync(join(dataDir, 'uploads', sent))).toBe(true);
    expect(
      await count(
        platform.db,
        "select count(*) as n from outbox where topic = 'upload.expired' and payload->>'uploadId' = any($1::text[])",
        [[pending, unsent]],
      ),
    ).toBe(2);
  });
});

describe('configuration', () => {
  test('media settings are validated at start', () => {
    expect(loadConfig({})).toMatchObject({ media: { kind: 'file' }, uploadMaxBytes: 104_857_600, uploadSessionTtlSeconds: 86_400 });
    expect(loadConfig({ UPLOAD_ALLOWED_TYPES: 'Image/*, application/pdf' }).uploadAllowedTypes).toEqual(['image/*', 'application/pdf']);
    expect(
      loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'chat-files', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' }).media,
    ).toEqual({
      kind: 's3',
      bucket: 'chat-files',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
    });
    for (const env of [
      { MEDIA_STORE: 'ftp' },
      { MEDIA_STORE: 's3' },
      { MEDIA_STORE: 's3', S3_BUCKET: 'Bad_Bucket' },
      { MEDIA_STORE: 's3', S3_BUCKET: 'ok-bucket', S3_ACCESS_KEY_ID: 'only-one' },
      { MEDIA_STORE: 's3', S3_BUCKET: 'ok-bucket', S3_ENDPOINT: 'minio:9000' },
      { MEDIA_STORE: 's3', S3_BUCKET: 'ok-bucket', S3_FORCE_PATH_STYLE: 'maybe' },
      { UPLOAD_ALLOWED_TYPES: 'images' },
      { UPLOAD_ALLOWED_TYPES: ' , ' },
      { UPLOAD_MAX_BYTES: '0' },
      { UPLOAD_SESSION_TTL_SECONDS: '10' },
      { MEDIA_PUBLIC_URL: 'https://media.example.com/?x=1' },
      { SCHEDULE_SWEEP_MS: '10' },
    ]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
    }
    expect(loadConfig({ MEDIA_PUBLIC_URL: 'https://media.example.com/' }).mediaPublicUrl).toBe('https://media.example.com');
  });
});

async function roomState(roomId: string) {
  const { rows } = await platform.db.query(
    'select last_seq, (select count(*)::int from messages where room_id = $1) as n from rooms where id = $1',
    [roomId],
  );
  return rows[0];
}

/** A fetch response as the expect helpers want it. */
async function wrap(res: Promise<Response>) {
  const r = await res;
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* a file, not an error envelope: the assertion shows it */
  }
  return { status: r.status, body, headers: r.headers };
}
