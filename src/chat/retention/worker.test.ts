// The retention job as the maintenance worker runs it (BullMQ on the file's Redis): a job added by name runs the
// task the workers registered; after the platform stops and a new one starts on the same database and Redis, the
// next job finds what is left, and each message is expired once, with one event naming it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../platform/logger.js';
import { createQueues, type Queues } from '../../platform/queues.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, eventually, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

const DAY = 86_400_000;
const clock = new ManualClock();
let dataDir: string;
let tenant: TestTenant;
let queues: Queues;
const platforms: TestPlatform[] = [];

const start = async () => {
  const p = await startTestPlatform({ dataDir }, clock);
  platforms.push(p);
  return p;
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'retention-worker-'));
});
afterAll(async () => {
  await queues?.close();
  for (const p of platforms) await p.stop().catch(() => undefined);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('a job by name runs the registered task; after a restart the next job expires the rest, each message once', async () => {
  const first = await start();
  tenant = await first.tenant();
  const fx = chatFixtures(first, tenant);
  queues = createQueues(first.redisUrl, createLogger('silent'));
  const c = await fx.cast();
  const old = async (text: string, on = first) => {
    const m = await chatFixtures(on, tenant).send(c.owner, c.roomId, text);
    await on.db.query('update messages set created_at = $2 where id = $1', [m.id, new Date(clock.now().getTime() - 3 * DAY)]);
    return m.id;
  };
  const kept = await fx.send(c.owner, c.roomId, 'fresh');
  const before = [await old('one'), await old('two')];
  expectOk(await fx.api(c.owner, 'PUT', `/rooms/${c.roomId}/retention`, { days: 2 }));
  const left = (ids: string[]) => count(platforms.at(-1)!.db, 'select count(*) as n from messages where id = any($1::uuid[])', [ids]);

  await queues.maintenance.add('expire-messages', {});
  await eventually(async () => (await left(before)) === 0);

  await first.stop();
  const second = await start();
  const after = [await old('three', second)];
  await queues.maintenance.add('expire-messages', {});
  await eventually(async () => (await left(after)) === 0);

  expect(await left([kept.id])).toBe(1);
  const { rows } = await second.db.query<{ id: string }>(
    "select jsonb_array_elements_text(payload->'messageIds') as id from outbox where topic = 'message.expired' and payload->>'roomId' = $1",
    [c.roomId],
  );
  expect(rows.map((r) => r.id).sort()).toEqual([...before, ...after].sort());
});
