// A deactivated or banned account could finish an open tus upload with its Upload-Token (PATCH 204). Every tus
// request checks the session's account: 403 in tus' plain-text form, and the upload does not move.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOk } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';

let platform: TestPlatform;
let tenant: TestTenant;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hostile-uploads-'));
  platform = await startTestPlatform({ services: ['chat'], dataDir, uploadAllowedTypes: ['text/plain'] });
  tenant = await platform.tenant();
});
afterAll(async () => {
  await platform?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const tus = (url: string, method: string, headers: Record<string, string>, body?: Buffer) =>
  fetch(url, { method, headers: { 'Tus-Resumable': '1.0.0', ...headers }, ...(body ? { body } : {}) });

/** An upload session with its upload created and half of its bytes sent. */
async function halfUploaded(who: TestAccount): Promise<{ location: string; headers: Record<string, string>; data: Buffer }> {
  const data = Buffer.alloc(1000, 7);
  const res = await call(platform.chatUrl, 'POST', '/api/v1/files/upload-session', {
    token: who.token,
    body: { fileName: 'a.txt', contentType: 'text/plain', size: data.length },
  });
  expectOk(res);
  const { uploadUrl, headers } = res.body.data as { uploadUrl: string; headers: Record<string, string> };
  const created = await tus(uploadUrl, 'POST', { ...headers, 'Upload-Length': String(data.length) });
  expect(created.status).toBe(201);
  const location = created.headers.get('location')!;
  const first = await tus(
    location,
    'PATCH',
    { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data.subarray(0, 500),
  );
  expect(first.status).toBe(204);
  return { location, headers, data };
}

const admin = () => platform.adminToken();
const setStatus = async (who: TestAccount, status: string) =>
  expectOk(await call(platform.chatUrl, 'PATCH', `/api/v1/accounts/${who.id}/status`, { token: await admin(), body: { status } }));

test.each([
  ['DEACTIVATED', 'deactivated'],
  ['BANNED', 'banned'],
])('an account %s mid-upload cannot PATCH the rest: 403', async (status, word) => {
  const alice = await tenant.account();
  const { location, headers, data } = await halfUploaded(alice);
  await setStatus(alice, status);
  const rest = await tus(
    location,
    'PATCH',
    { ...headers, 'Upload-Offset': '500', 'Content-Type': 'application/offset+octet-stream' },
    data.subarray(500),
  );
  expect(rest.status).toBe(403);
  expect(await rest.text()).toContain(word);
  const { rows } = await platform.db.query('select status from uploads where owner_id = $1', [alice.id]);
  expect(rows.map((r) => r.status)).toEqual(['UPLOADING']);
  // Reactivated, the same token finishes the upload.
  await setStatus(alice, 'ACTIVE');
  const resumed = await tus(
    location,
    'PATCH',
    { ...headers, 'Upload-Offset': '500', 'Content-Type': 'application/offset+octet-stream' },
    data.subarray(500),
  );
  expect(resumed.status).toBe(204);
});
