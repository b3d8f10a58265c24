// Starts one real PostgreSQL (embedded) and one redis-server for the whole test run, unless
// TEST_DATABASE_URL / TEST_REDIS_URL point at existing ones, and applies the migrations.
// Jest loads this file outside its ESM transform, so it uses the compiled platform (make test builds first).
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../../dist/src/', import.meta.url);

export default async function globalSetup() {
  if (!existsSync(new URL('app/runtime.js', dist))) {
    throw new Error('dist/ is missing: run `make test` (or `npm run build` before `npm test`).');
  }
  const { startEmbeddedPostgres } = await import(new URL('platform/infra/embedded-postgres.js', dist).href);
  const { startLocalRedis } = await import(new URL('platform/infra/local-redis.js', dist).href);
  const { migrate, openOrm } = await import(new URL('platform/db/orm.js', dist).href);
  const stops = [];
  const dir = await mkdtemp(join(tmpdir(), 'platform-test-'));
  if (!process.env.TEST_DATABASE_URL) {
    const db = await startEmbeddedPostgres(dir);
    process.env.TEST_DATABASE_URL = db.url;
    stops.push(db.stop);
  }
  if (!process.env.TEST_REDIS_URL) {
    // Databases enough for every test that takes one of its own (test/support/platform.ts, isolatedInfra).
    const redis = await startLocalRedis(dir, { databases: 256 });
    process.env.TEST_REDIS_URL = redis.url;
    stops.push(redis.stop);
  }
  const orm = await openOrm({ databaseUrl: process.env.TEST_DATABASE_URL });
  await migrate(orm);
  await orm.close();
  globalThis.__testInfraStops = stops;
}
