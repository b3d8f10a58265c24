// A Synapse homeserver (matrix-synapse from PyPI, in its own virtualenv) on the benchmark's PostgreSQL, single
// process, logging at WARNING (as the platform under benchmark logs nothing per request), rate limits lifted: the
// peer of `make bench-peer`. Returns a user's access token and a room to send to and page through.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/platform/infra/free-port.js';

export interface Synapse {
  url: string;
  token: string;
  roomId: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

const serverName = 'bench.local';
const sharedSecret = 'bench-registration-secret';

const configPatch = `
import sys, yaml
path, db_url, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
from urllib.parse import urlparse
u = urlparse(db_url)
c = yaml.safe_load(open(path))
c['database'] = {'name': 'psycopg2', 'allow_unsafe_locale': True, 'args': {
    'user': u.username, 'password': u.password, 'host': u.hostname, 'port': u.port, 'database': 'synapse', 'cp_min': 5, 'cp_max': 10}}
c['listeners'] = [{'port': port, 'bind_addresses': ['127.0.0.1'], 'type': 'http', 'tls': False, 'x_forwarded': False,
    'resources': [{'names': ['client'], 'compress': False}]}]
c['registration_shared_secret'] = '${sharedSecret}'
c['report_stats'] = False
c['suppress_key_server_warning'] = True
c['trusted_key_servers'] = []
lifted = {'per_second': 1000000, 'burst_count': 1000000}
c['rc_message'] = lifted
c['rc_registration'] = lifted
c['rc_joins'] = {'local': lifted, 'remote': lifted}
c['rc_login'] = {'address': lifted, 'account': lifted, 'failed_attempts': lifted}
c['rc_admin_redaction'] = lifted
yaml.safe_dump(c, open(path, 'w'))
`;

async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = 'synapse'");
    if (!rowCount) await client.query("create database synapse encoding 'UTF8' lc_collate 'C' lc_ctype 'C' template template0");
  } finally {
    await client.end();
  }
}

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export async function startSynapse(python: string, dataFolder: string, databaseUrl: string, log: (line: string) => void): Promise<Synapse> {
  // Synapse runs in its data folder; a relative config path would be taken relative to that folder.
  const dataDir = resolve(dataFolder);
  if (spawnSync(python, ['-c', 'import synapse']).status !== 0) {
    throw new Error(
      `${python} cannot import synapse: install it with \`make bench-peer\` (matrix-synapse[postgres] from PyPI into .tools/synapse) or set SYNAPSE_PYTHON`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  await ensureDatabase(databaseUrl);
  const config = join(dataDir, 'homeserver.yaml');
  const port = await freePort();
  if (!existsSync(config)) {
    const generated = spawnSync(
      python,
      [
        '-m',
        'synapse.app.homeserver',
        '--server-name',
        serverName,
        '--config-path',
        config,
        '--data-directory',
        dataDir,
        '--generate-config',
        '--report-stats=no',
      ],
      { cwd: dataDir, encoding: 'utf8' },
    );
    if (generated.status !== 0) throw new Error(`synapse --generate-config failed: ${generated.stderr}`);
    const logConfig = join(dataDir, `${serverName}.log.config`);
    if (existsSync(logConfig)) writeFileSync(logConfig, readFileSync(logConfig, 'utf8').replace(/level: INFO/g, 'level: WARNING'));
  }
  const patched = spawnSync(python, ['-c', configPatch, config, databaseUrl, String(port)], { encoding: 'utf8' });
  if (patched.status !== 0) throw new Error(`patching the synapse config failed: ${patched.stderr}`);

  log(`starting Synapse on port ${port}`);
  const child: ChildProcess = spawn(python, ['-m', 'synapse.app.homeserver', '-c', config], {
    cwd: dataDir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Synapse exited with ${child.exitCode}: ${stderr}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`Synapse did not answer /health within 180 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  try {
    const username = `bench${Date.now()}`;
    const password = 'bench-password';
    const { nonce } = await json(`${url}/_synapse/admin/v1/register`);
    const mac = createHmac('sha1', sharedSecret).update(`${nonce}\0${username}\0${password}\0notadmin`).digest('hex');
    const registered = await json(`${url}/_synapse/admin/v1/register`, {
      method: 'POST',
      body: JSON.stringify({ nonce, username, password, admin: false, mac }),
    });
    const token = registered.access_token as string;
    const room = await json(`${url}/_matrix/client/v3/createRoom`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ preset: 'private_chat' }),
    });
    return { url, token, roomId: room.room_id as string, pid: child.pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
