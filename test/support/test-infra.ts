// The servers and databases a test file runs on. The jest global setup starts one PostgreSQL, migrates a template
// database once, and starts a shared redis-server; the test runner (runner/file-infra.mjs) gives every test
// file a database cloned from the template and a redis-server of its own, so no outbox relay, queue worker, cache
// invalidation, pub/sub announcement or rate counter of one file can act on another file's data.
// The global setup loads this file compiled (dist/test/support); the test processes import it from source.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startLocalRedis, type LocalRedis } from '../../src/platform/infra/local-redis.js';

/** The migrated database every test database is cloned from (set by the global setup). */
export const templateDatabaseVariable = 'TEST_TEMPLATE_DATABASE';

/** Runs `work` with a client connected to the server of `serverUrl` (any of its databases). */
async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrlFor(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new database with the template's schema (copied, not migrated: a few tens of milliseconds). */
export async function cloneTemplateDatabase(serverUrl: string, template: string, prefix = 't'): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  // FILE_COPY copies the template's files and checkpoints once, faster than WAL_LOG for a small schema-only database.
  await onServer(serverUrl, (c) => c.query(`create database ${name} template ${template} strategy file_copy`));
  return { name, url: databaseUrlFor(serverUrl, name) };
}

/** Creates `name` as an empty database and returns its URL. */
export async function createEmptyDatabase(serverUrl: string, name: string): Promise<string> {
  await onServer(serverUrl, (c) => c.query(`create database ${name}`));
  return databaseUrlFor(serverUrl, name);
}

/** Marks `name` as a template that accepts no connections, so cloning it never waits on a client. */
export async function sealTemplate(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, (c) => c.query(`alter database ${name} with is_template true allow_connections false`));
}

/**
 * Drops database `name` once its connections have ended, waiting up to `waitMs` for a stopped platform's pool to
 * close; forcing them earlier would hand their owners a "terminating connection" error they may no longer listen for.
 * A database still in use after that is left to the end of the run, when the whole server goes.
 */
export async function dropDatabaseWhenIdle(serverUrl: string, name: string, waitMs = 5_000): Promise<boolean> {
  return onServer(serverUrl, async (c) => {
    for (let waited = 0; ; waited += 50) {
      const { rows } = await c.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (rows[0]!.n === 0) break;
      if (waited >= waitMs) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    await c.query(`drop database if exists ${name}`);
    return true;
  });
}

/** A redis-server of the test's own, without persistence (nothing of a test outlives its file). */
export function startTestRedis(dir: string): Promise<LocalRedis> {
  return startLocalRedis(dir, { persistence: false });
}

/** Drops the run's template database (an external server keeps nothing of the run). */
export async function dropTemplate(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, async (c) => {
    await c.query(`alter database ${name} with is_template false`);
    await c.query(`drop database if exists ${name} with (force)`);
  });
}
