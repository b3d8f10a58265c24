// Every test file runs on a database and a redis-server of its own: before the file loads, the run's template
// database (migrated once by the global setup) is cloned and a redis-server started, and TEST_DATABASE_URL and
// TEST_REDIS_URL point at them; after the file, the server stops, the database is dropped and the process's
// environment is as it was. Everything a test starts through test/support/platform.ts (one platform or several
// nodes) runs on them.
import { appendFileSync, rmSync } from 'node:fs';
import { cloneTemplateDatabase, dropDatabaseWhenIdle, startTestRedis, templateDatabaseVariable } from '../test-infra.ts';
import { fileTimesOf, redisDirOf } from './run-dir.mjs';

let files = 0;

export async function withFileInfra(path, started, run) {
  const env = { ...process.env };
  const server = env.TEST_DATABASE_URL;
  const template = env[templateDatabaseVariable];
  const runDir = env.TEST_RUN_DIR;
  if (!server || !template || !runDir) throw new Error('the jest global setup (test/support/global-setup.mjs) did not run');
  const id = `${process.pid}-${++files}`;
  const [database, redis] = await Promise.all([cloneTemplateDatabase(server, template), startTestRedis(redisDirOf(runDir, id))]);
  process.env.TEST_DATABASE_URL = database.url;
  process.env.TEST_REDIS_URL = redis.url;
  // Platforms a test spawns (node dist/src/main.js) compile each route's schemas on first use, as the in-process
  // ones do (test/support/platform.ts); the contract run compiles them all at start.
  process.env.SCHEMA_COMPILATION ??= 'first-use';
  try {
    return await run();
  } finally {
    try {
      await redis.stop();
      rmSync(redisDirOf(runDir, id), { recursive: true, force: true });
      await dropDatabaseWhenIdle(server, database.name);
    } finally {
      restoreEnvironment(env);
      recordTimes(runDir, path, started);
    }
  }
}

/** A file's changes to process.env end with it. */
function restoreEnvironment(saved) {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
}

/** The process runs one file at a time, so its CPU since the file began is the file's (spawned processes apart). */
function recordTimes(runDir, path, started) {
  const cpu = process.cpuUsage(started.cpu);
  const wall = (performance.now() - started.wall) / 1000;
  const file = path.slice(process.cwd().length + 1);
  appendFileSync(fileTimesOf(runDir), `${file}\t${wall.toFixed(1)}\t${((cpu.user + cpu.system) / 1e6).toFixed(1)}\n`);
}
