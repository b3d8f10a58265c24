// The scheduled deletion of audit entries older than 30 days: a BullMQ job scheduler on the maintenance queue,
// run by the workers. A database and Redis of its own, so no other test file's workers take the job.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { eventually } from '../../helpers/expect.js';
import { isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';
import { newId } from '../../../src/platform/ids.js';

let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let queue: Queue;
let connection: Redis;

beforeAll(async () => {
  infra = await isolatedInfra();
  platform = await startTestPlatform({ services: ['workspace', 'workers'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl });
  connection = new Redis(infra.redisUrl, { maxRetriesPerRequest: null });
  queue = new Queue('maintenance', { connection });
});
afterAll(async () => {
  await queue?.close();
  connection?.disconnect();
  await platform?.stop();
  await infra?.drop();
});

test('the hourly scheduler exists, and its job deletes entries older than 30 days only', async () => {
  const scheduler = await queue.getJobScheduler('svc-audit-prune');
  expect(scheduler).toMatchObject({ every: 3_600_000, name: 'prune-svc-audit' });

  const ws = await svcWorkspace(platform);
  const { id: keyId } = await ws.key(['crm.read']);
  const day = 86_400_000;
  const ages = { old: 31 * day, edge: 30 * day + 60_000, kept: 29 * day, fresh: 1000 };
  const ids: Record<string, string> = {};
  for (const [name, age] of Object.entries(ages)) {
    ids[name] = newId();
    await platform.db.query(
      `insert into svc_audit_log (id, workspace_id, key_id, time, ip, method, endpoint, status_code) values ($1, $2, $3, $4, '127.0.0.1', 'GET', '/api/v1/leads', 200)`,
      [ids[name], ws.id, keyId, new Date(Date.now() - age)],
    );
  }
  await queue.add('prune-svc-audit', {});
  await eventually(async () => (await platform.db.query('select 1 from svc_audit_log where id = $1', [ids.edge])).rowCount === 0, 10_000);
  const { rows } = await platform.db.query('select id from svc_audit_log where workspace_id = $1', [ws.id]);
  expect(rows.map((r) => r.id).sort()).toEqual([ids.kept, ids.fresh].sort());
});
