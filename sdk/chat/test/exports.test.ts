// An export through the SDK, over a listener whose workers build it: started, followed to done, and its archive
// downloaded as bytes (a zip, not a JSON body).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { createChatClient } from '../src/index.js';

let platform: TestPlatform;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sdk-exports-'));
  platform = await startTestPlatform({ services: ['chat', 'workers'], dataDir });
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The view once the export is done; false before. */
const doneOnly = <V extends { state: string }>(view: V): V | false => view.state === 'done' && view;

test('createExport, getExport until done, and downloadExport resolving to the zip bytes', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  const chat = createChatClient({ baseUrl: platform.chatUrl, token: alice.token });
  const started = (await chat.createExport()).data;
  expect(started.state).toBe('queued');
  const done = await eventually(async () => doneOnly((await chat.getExport({ path: { exportId: started.id } })).data));
  const bytes = (await chat.downloadExport({ path: { exportId: started.id } })).data as unknown as ArrayBuffer;
  expect(bytes.byteLength).toBe(done.size);
  expect(Buffer.from(bytes).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
}, 60_000);
