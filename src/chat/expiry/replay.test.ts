// message.expired reaches the room's members like any room event: with the workers running, the relay writes it to
// each member's event log, so GET /me/events replays it to a client that was away.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../platform/clock.js';
import { mediaStore } from '../../core/media/store.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { eventually, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { expungeMessages } from './expunge.js';

let dataDir: string;
let platform: TestPlatform;
let fx: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'expiry-replay-'));
  platform = await startTestPlatform({ dataDir });
  fx = chatFixtures(platform, await platform.tenant());
});
afterAll(async () => {
  await platform?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Event {
  topic: string;
  payload: Record<string, unknown>;
}

test('GET /me/events replays message.expired to every member, not to an outsider', async () => {
  const c = await fx.cast();
  const m = await fx.send(c.owner, c.roomId, 'short-lived');
  const deps = { sql: platform.db, media: mediaStore(platform.config.media, dataDir), clock: systemClock };
  expect(await expungeMessages(deps, [m.id], 'retention')).toBe(1);
  const expiredFor = async (who: typeof c.member) => {
    const res = await fx.api(who, 'GET', '/me/events?after=0&limit=500');
    expectOk(res);
    return (res.body.data.events as Event[]).filter((e) => e.topic === 'message.expired');
  };
  const seen = await eventually(async () => (await expiredFor(c.member))[0]);
  expect(seen.payload).toMatchObject({ roomId: c.roomId, messageIds: [m.id], reason: 'retention' });
  expect(await expiredFor(c.member)).toHaveLength(1);
  expect(await expiredFor(c.admin)).toHaveLength(1);
  expect(await expiredFor(c.outsider)).toHaveLength(0);
});
