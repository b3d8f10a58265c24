// Storage under /api/v1/storage over the real listener and the real media store: upload raw bytes, read the
// metadata and the bytes back with their type, list, delete, the size limit, and workspace/environment partitions.
import { createHash, randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { expectPartnerError } from '../../../test/helpers/partner-expect.js';
import { storageMaxBytes } from './files.js';

const files = '/api/v1/storage/files';
let platform: TestPlatform;
let ws: TestWorkspace;
let key: string;

interface Raw {
  status: number;
  headers: Headers;
  bytes: Buffer;
  body: any;
}

async function request(
  method: string,
  path: string,
  k: string,
  init: { body?: Buffer; idem?: string; contentType?: string } = {},
): Promise<Raw> {
  const headers: Record<string, string> = { 'x-api-key': k };
  if (method !== 'GET') headers['idempotency-key'] = init.idem ?? randomUUID();
  if (init.body) headers['content-type'] = init.contentType ?? 'application/octet-stream';
  const res = await fetch(`${platform.partnerUrl}${path}`, { method, headers, body: init.body });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: any;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, body };
}

const upload = (bytes: Buffer, query: string, k = key, idem?: string) => request('POST', `${files}?${query}`, k, { body: bytes, idem });
const fileRows = async (workspaceId: string) =>
  Number((await platform.db.query('select count(*) as n from storage_files where workspace_id = $1', [workspaceId])).rows[0].n);

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] });
  ws = await testWorkspace(platform);
  // Storage names no scope: any valid key of the workspace may use it.
  key = (await ws.key(['kb:read'])).key;
});
afterAll(async () => {
  await platform?.stop();
});

test('upload, metadata, content with its type, list and delete', async () => {
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 0, 255]);
  const res = await upload(bytes, 'file_name=logo%20%C3%A9.png&content_type=image/png');
  expect(res.status).toBe(201);
  const file = res.body;
  expect(file).toEqual({
    object: 'storage.file',
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    file_name: 'logo é.png',
    content_type: 'image/png',
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    content_url: `${files}/${file.id}/content`,
    created_at: expect.any(String),
  });
  expect(res.headers.get('location')).toBe(`${files}/${file.id}`);

  expect((await request('GET', `${files}/${file.id}`, key)).body).toEqual(file);
  const content = await request('GET', file.content_url, key);
  expect(content.status).toBe(200);
  expect(content.bytes.equals(bytes)).toBe(true);
  expect(content.headers.get('content-type')).toBe('image/png');
  expect(content.headers.get('content-disposition')).toBe(`attachment; filename="logo _.png"; filename*=UTF-8''logo%20%C3%A9.png`);
  expect(content.headers.get('x-content-type-options')).toBe('nosniff');

  expect((await request('GET', files, key)).body.data.map((f: any) => f.id)).toContain(file.id);

  const deleted = await request('DELETE', `${files}/${file.id}`, key);
  expect(deleted.body).toEqual({ object: 'storage.file', id: file.id, deleted: true });
  expectPartnerError(await request('GET', file.content_url, key), 404, 'file_not_found');
  expectPartnerError(await request('DELETE', `${files}/${file.id}`, key), 404, 'file_not_found');
});

test('a repeated upload with the same Idempotency-Key stores one file; other content is 409', async () => {
  const before = await fileRows(ws.id);
  const idem = randomUUID();
  const first = await upload(Buffer.from('hello'), 'file_name=a.txt&content_type=text/plain', key, idem);
  const again = await upload(Buffer.from('hello'), 'file_name=a.txt&content_type=text/plain', key, idem);
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  expect(await fileRows(ws.id)).toBe(before + 1);
  expectPartnerError(await upload(Buffer.from('other'), 'file_name=a.txt&content_type=text/plain', key, idem), 409, 'idempotency_conflict');
});

test('the default type, the size limit, a missing name and a JSON body are refused without storing anything', async () => {
  const plain = await upload(Buffer.from('x'), 'file_name=data.bin');
  expect(plain.body.content_type).toBe('application/octet-stream');
  const before = await fileRows(ws.id);
  expectPartnerError(await upload(Buffer.alloc(storageMaxBytes + 1), 'file_name=big.bin'), 413, 'payload_too_large');
  expectPartnerError(await upload(Buffer.from('x'), 'content_type=text/plain'), 400, 'bad_input');
  expectPartnerError(await upload(Buffer.from('x'), 'file_name=a%2Fb.txt'), 400, 'bad_input');
  expectPartnerError(await upload(Buffer.from('x'), 'file_name=a.txt&content_type=not-a-type'), 400, 'bad_input');
  expectPartnerError(
    await request('POST', `${files}?file_name=a.txt`, key, { body: Buffer.from('{}'), contentType: 'application/json' }),
    415,
    'unsupported_media_type',
  );
  expect(await fileRows(ws.id)).toBe(before);
});

test('a file is seen only by keys of its workspace and environment', async () => {
  const file = (await upload(Buffer.from('secret'), 'file_name=s.txt&content_type=text/plain')).body;
  const other = await testWorkspace(platform);
  const otherKey = (await other.key(['kb:read'])).key;
  expectPartnerError(await request('GET', `${files}/${file.id}`, otherKey), 404, 'file_not_found');
  expectPartnerError(await request('GET', `${files}/${file.id}/content`, otherKey), 404, 'file_not_found');
  expect((await request('GET', files, otherKey)).body.data).toEqual([]);
  const testKey = (await ws.key(['kb:read'], { environment: 'test' })).key;
  expectPartnerError(await request('GET', `${files}/${file.id}/content`, testKey), 404, 'file_not_found');
  expectPartnerError(await request('DELETE', `${files}/${file.id}`, otherKey), 404, 'file_not_found');
  expect((await request('GET', `${files}/${file.id}/content`, key)).bytes.toString()).toBe('secret');
});

test('without a valid key storage answers 401', async () => {
  expectPartnerError(await request('GET', files, 'live_nonsense'), 401, 'invalid_api_key');
});
