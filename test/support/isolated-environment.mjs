// The test environment of every test file: Node's, plus infrastructure of the file's own. Before the file loads, it
// clones the run's template database (migrated once by the global setup) and starts a redis-server for the file, and
// points the file's TEST_DATABASE_URL and TEST_REDIS_URL at them; after the file, it stops the server and drops the
// database. Everything a test starts through test/support/platform.ts (one platform or several nodes) runs on them.
// A file that must share the run's servers says so in its docblock:
//   /** @jest-environment-options {"infra": "shared"} */
import NodeEnvironment from 'jest-environment-node';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../../dist/', import.meta.url);
const infra = await import(new URL('test/support/test-infra.js', dist).href);

/** Folder of one file's redis-server under the run's folder; its pid file is how the global teardown finds it. */
const redisDirOf = (runDir, id) => join(runDir, 'files', id);

/** Each file's wall and worker CPU seconds, one line per file; the global teardown prints the costliest. */
export const fileTimesOf = (runDir) => join(runDir, 'file-times.tsv');

export default class IsolatedEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.shared = config.projectConfig.testEnvironmentOptions?.infra === 'shared';
    this.testPath = context.testPath;
  }

  async setup() {
    this.started = { wall: performance.now(), cpu: process.cpuUsage() };
    await super.setup();
    if (this.shared) return;
    const env = this.global.process.env;
    const server = env.TEST_DATABASE_URL;
    const template = env[infra.templateDatabaseVariable];
    const runDir = env.TEST_RUN_DIR;
    if (!server || !template || !runDir) throw new Error('the jest global setup (test/support/global-setup.mjs) did not run');
    this.id = `${process.pid}-${Date.now().toString(36)}`;
    this.serverUrl = server;
    const [database, redis] = await Promise.all([
      infra.cloneTemplateDatabase(server, template),
      infra.startTestRedis(redisDirOf(runDir, this.id)),
    ]);
    this.database = database;
    this.redis = redis;
    this.runDir = runDir;
    env.TEST_DATABASE_URL = database.url;
    env.TEST_REDIS_URL = redis.url;
    // Platforms a test spawns (node dist/src/main.js) compile each route's schemas on first use, as the in-process
    // ones do (test/support/platform.ts); the contract run compiles them all at start.
    env.SCHEMA_COMPILATION ??= 'first-use';
  }

  async teardown() {
    try {
      if (this.redis) await this.redis.stop();
      if (this.runDir) rmSync(redisDirOf(this.runDir, this.id), { recursive: true, force: true });
      if (this.database) await infra.dropDatabaseWhenIdle(this.serverUrl, this.database.name);
    } finally {
      await super.teardown();
      this.recordTimes();
    }
  }

  /** The worker runs one file at a time, so its CPU since setup is this file's (spawned processes not included). */
  recordTimes() {
    const runDir = process.env.TEST_RUN_DIR;
    if (!runDir || !this.started) return;
    const cpu = process.cpuUsage(this.started.cpu);
    const wall = (performance.now() - this.started.wall) / 1000;
    const file = this.testPath.slice(process.cwd().length + 1);
    appendFileSync(fileTimesOf(runDir), `${file}\t${wall.toFixed(1)}\t${((cpu.user + cpu.system) / 1e6).toFixed(1)}\n`);
  }
}

/** Stops the redis-servers of files whose worker was killed before its teardown ran. */
export function stopLeftoverRedisServers(runDir) {
  if (!runDir) return;
  const files = join(runDir, 'files');
  mkdirSync(files, { recursive: true });
  for (const id of readdirSync(files)) {
    try {
      const pid = Number(readFileSync(join(files, id, 'redis', 'redis-server.pid'), 'utf8'));
      if (pid > 0) process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
