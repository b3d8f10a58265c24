// A drain after Redis went away: a BullMQ worker whose blocking connection is waiting to reconnect never finishes
// Worker.close(), which is why every worker of the platform is closed through closeWorker. Runs against a real
// redis-server that the test kills.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { startLocalRedis, type LocalRedis } from './infra/local-redis.js';
import { connectRedis, type Redis } from './redis.js';
import { eventually } from '../../test/helpers/expect.js';
import { closeWorker } from './worker-close.js';

let dir: string;
let redis: LocalRedis;
const connections: Redis[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'worker-close-'));
  redis = await startLocalRedis(dir);
});
afterAll(async () => {
  for (const c of connections) c.disconnect();
  // ioredis guards the end of a socket that is already gone with a timer of its disconnectTimeout (2 s).
  await new Promise((r) => setTimeout(r, 2_100));
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The worker's blocking connection, which BullMQ keeps internal. */
const blockingClient = (worker: Worker) =>
  (worker as unknown as { backend: { blockingConnection: { client: Promise<Redis> } } }).backend.blockingConnection.client;
const blockingStatus = async (worker: Worker) => (await blockingClient(worker)).status;

function idleWorker(name: string): Worker {
  const connection = connectRedis(redis.url, name, { blocking: true });
  connection.on('error', () => undefined);
  connections.push(connection);
  const worker = new Worker(name, async () => undefined, { connection });
  worker.on('error', () => undefined);
  return worker;
}

const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

/** Whether the blocking connection of every worker has the status. */
async function allInStatus(workers: Worker[], status: string): Promise<boolean> {
  const statuses = await Promise.all(workers.map(blockingStatus));
  return statuses.every((s) => s === status);
}

const isSource = (path: string) => path.endsWith('.ts') && !path.endsWith('.test.ts');
const occurrences = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** A line for the file when it creates more BullMQ workers than it closes through closeWorker, none otherwise. */
function unclosedWorkers(root: string, path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8');
  const created = occurrences(text, /new Worker\(/g);
  const closed = occurrences(text, /closeWorker\(/g);
  return created > closed ? [`${path}: ${created} created, ${closed} closed through closeWorker`] : [];
}

test('closeWorker ends a worker whose blocking connection is reconnecting, where Worker.close() never does', async () => {
  const plain = idleWorker('close-plain');
  const guarded = idleWorker('close-guarded');
  await Promise.all([plain.waitUntilReady(), guarded.waitUntilReady()]);
  await eventually(() => allInStatus([plain, guarded], 'ready'), 10_000);

  process.kill(redis.pid!, 'SIGKILL');
  await eventually(() => allInStatus([plain, guarded], 'reconnecting'), 10_000);

  expect(await settlesWithin(closeWorker(guarded, 200), 5_000)).toBe(true);
  expect(await settlesWithin(plain.close(), 3_000)).toBe(false);
  // What the plain close left waiting: the connection's reconnect timer, stopped here so that the test ends.
  (await blockingClient(plain)).disconnect();
}, 30_000);

test('every BullMQ worker of src/ is closed through closeWorker', () => {
  const root = join(process.cwd(), 'src');
  const unguarded = (readdirSync(root, { recursive: true }) as string[]).filter(isSource).flatMap((path) => unclosedWorkers(root, path));
  expect(unguarded).toEqual([]);
});
