// The erasure job as the maintenance worker runs it: a job left running by a worker that stopped (its lease ran
// out) is resumed from the progress its row keeps and finished once; a job another worker holds is left alone; two
// workers on one job never anonymise a message twice.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '../../platform/ids.js';
import { connectRedis, type Redis } from '../../platform/redis.js';
import { systemClock } from '../../platform/clock.js';
import { mediaStore } from '../../core/media/store.js';
import { count } from '../../../test/helpers/expect.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { startTestPlatform, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import type { ErasureDeps } from './deps.js';
import { runErasures } from './job.js';
import { tombstone } from './steps.js';

let platform: TestPlatform;
let tenant: TestTenant;
let redis: Redis;
let dataDir: string;
let deps: ErasureDeps;
let invalidated: string[];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'erasure-job-test-'));
  // No worker of its own: the test runs the job as the maintenance worker would, when it chooses.
  platform = await startTestPlatform({ services: ['chat'], dataDir });
  tenant = await platform.tenant();
  redis = connectRedis(platform.redisUrl, 'erasure-test');
  invalidated = [];
  deps = {
    sql: platform.db,
    clock: systemClock,
    redis,
    media: mediaStore(platform.config.media, dataDir),
    accounts: { invalidate: async (id) => void invalidated.push(id) },
  };
}, 120_000);
afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** An erased account with `n` messages in a room of its own and a job row as a stopped worker left it. */
async function leftJob(n: number, job: { step: string; leaseUntil: string }) {
  const fx = chatFixtures(platform, tenant);
  const [person, other] = await Promise.all([tenant.account(), tenant.account()]);
  const roomId = await fx.room(other, [person]);
  await platform.db.query(
    `insert into messages (id, room_id, seq, sender_id, type, text, created_at)
     select gen_random_uuid(), $1, g, $2, 'TEXT', 'text ' || g, now() from generate_series(1, $3::int) g`,
    [roomId, person.id, n],
  );
  await platform.db.query(`update rooms set last_seq = $2 where id = $1`, [roomId, n]);
  await platform.db.query(`update accounts set status = 'ERASED', email = 'x@example.com' where id = $1`, [person.id]);
  const jobId = newId();
  await platform.db.query(
    `insert into erasures (id, account_id, erased_by, requested_at, messages, state, step, lease_until)
     values ($1, $2, $3, now(), 'anonymize', 'running', $4, now() + $5::interval)`,
    [jobId, person.id, other.id, job.step, job.leaseUntil],
  );
  return { person, roomId, jobId };
}

const stateOf = async (jobId: string) => (await platform.db.query('select state, step from erasures where id = $1', [jobId])).rows[0];
const anonymizedIds = async (roomId: string): Promise<string[]> => {
  const { rows } = await platform.db.query(`select payload from outbox where topic = 'message.anonymized' and payload->>'roomId' = $1`, [
    roomId,
  ]);
  return rows.flatMap((r) => r.payload.messageIds as string[]);
};

async function runUntilDone(jobId: string): Promise<void> {
  for (let i = 0; i < 50 && (await stateOf(jobId)).state !== 'done'; i++) await runErasures(deps);
}

test('a job whose worker stopped (lease ran out) is resumed and finished once', async () => {
  const { person, roomId, jobId } = await leftJob(3, { step: 'profile', leaseUntil: '-1 minute' });
  await runUntilDone(jobId);
  expect(await stateOf(jobId)).toEqual({ state: 'done', step: null });
  expect(await count(platform.db, `select count(*) as n from messages where sender_id = $1 and text = $2`, [person.id, tombstone])).toBe(3);
  expect(await count(platform.db, `select count(*) as n from accounts where id = $1 and email is null`, [person.id])).toBe(1);
  expect(invalidated).toContain(person.id);
  expect(await anonymizedIds(roomId)).toHaveLength(3);
  // a later run finds nothing to do
  await runErasures(deps);
  expect(await anonymizedIds(roomId)).toHaveLength(3);
});

test('a job another worker still holds (lease not over) is left alone', async () => {
  const { person, jobId } = await leftJob(2, { step: 'messages', leaseUntil: '10 minutes' });
  await runErasures(deps);
  expect(await stateOf(jobId)).toEqual({ state: 'running', step: 'messages' });
  expect(await count(platform.db, `select count(*) as n from messages where sender_id = $1 and text = $2`, [person.id, tombstone])).toBe(0);
  await platform.db.query(`update erasures set lease_until = now() - interval '1 second' where id = $1`, [jobId]);
  await runUntilDone(jobId);
  expect(await count(platform.db, `select count(*) as n from messages where sender_id = $1 and text = $2`, [person.id, tombstone])).toBe(2);
});

test('two workers on one job of several batches anonymise each message exactly once', async () => {
  const { person, roomId, jobId } = await leftJob(1_100, { step: 'messages', leaseUntil: '-1 minute' });
  await Promise.all([runErasures(deps), runErasures(deps)]);
  await platform.db.query(`update erasures set lease_until = now() - interval '1 second' where id = $1 and state = 'running'`, [jobId]);
  await Promise.all([runUntilDone(jobId), runUntilDone(jobId)]);
  expect(await stateOf(jobId)).toEqual({ state: 'done', step: null });
  const ids = await anonymizedIds(roomId);
  expect(ids).toHaveLength(1_100);
  expect(new Set(ids).size).toBe(1_100);
  expect(await count(platform.db, `select count(*) as n from messages where sender_id = $1 and text = $2`, [person.id, tombstone])).toBe(
    1_100,
  );
});
