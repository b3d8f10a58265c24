// Starts one real PostgreSQL (embedded) and one shared redis-server for the whole test run, unless
// TEST_DATABASE_URL / TEST_REDIS_URL point at existing ones, and migrates a template database once. Each test file
// then runs on a clone of the template and a redis-server of its own (test/support/runner/file-infra.mjs).
// Jest loads this file outside its ESM transform, so it uses the compiled platform (make test builds first).
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../../dist/', import.meta.url);

export default async function globalSetup() {
  if (!existsSync(new URL('src/app/runtime.js', dist)) || !existsSync(new URL('test/support/test-infra.js', dist))) {
    throw new Error('dist/ is missing: run `make test` (or `make build` before `npm test`).');
  }
  const load = (path) => import(new URL(path, dist).href);
  const { startEmbeddedPostgres } = await load('src/platform/infra/embedded-postgres.js');
  const { startLocalRedis } = await load('src/platform/infra/local-redis.js');
  const { migrate, openOrm } = await load('src/platform/db/orm.js');
  const infra = await load('test/support/test-infra.js');
  const stops = [];
  const dir = await mkdtemp(join(tmpdir(), 'platform-test-'));
  // Where each file's environment keeps its redis-server; the teardown stops any a killed worker left behind.
  process.env.TEST_RUN_DIR = dir;
  if (!process.env.TEST_DATABASE_URL) {
    const db = await startEmbeddedPostgres(dir, undefined, { durable: false });
    process.env.TEST_DATABASE_URL = db.url;
    stops.push(db.stop);
  }
  if (!process.env.TEST_REDIS_URL) {
    // Databases enough for the tests that take one more of their own (isolatedInfra) on a shared server.
    const redis = await startLocalRedis(dir, { databases: 256, persistence: false });
    process.env.TEST_REDIS_URL = redis.url;
    stops.push(redis.stop);
  }
  const template = `tmpl_${process.pid}_${Date.now()}`;
  const templateUrl = await infra.createEmptyDatabase(process.env.TEST_DATABASE_URL, template);
  const orm = await openOrm({ databaseUrl: templateUrl });
  await migrate(orm);
  await orm.close();
  await infra.sealTemplate(process.env.TEST_DATABASE_URL, template);
  process.env[infra.templateDatabaseVariable] = template;
  stops.push(() => infra.dropTemplate(process.env.TEST_DATABASE_URL, template));
  globalThis.__testInfraStops = stops;
}
