// The dev-svc-key tool, as built: one line on stdout (the key), the workspace and its owner created when needed,
// the plan, environment, allow-list and expiry applied, and bad arguments refused with exit code 2 and no key.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { svcHeaders } from '../../test/helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../test/support/platform.js';
import { newId } from '../platform/ids.js';

const run = promisify(execFile);
const cli = new URL('../../dist/src/cli/dev-svc-key.js', import.meta.url).pathname;

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['workspace'] });
});
afterAll(async () => {
  await platform.stop();
});

async function devSvcKey(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const workspaceOf = async (keyText: string) =>
  (
    await platform.db.query(
      `select w.id, w.name, w.plan, w.svc_plan, w.svc_rate_per_hour, w.svc_rate_per_minute, k.environment, k.scopes, k.ip_allow_list, k.expires_at, k.created_by
       from svc_keys k join workspaces w on w.id = k.workspace_id where k.prefix = $1 and k.last_four = $2 order by k.created_at desc limit 1`,
      [keyText.slice(0, 8), keyText.slice(-4)],
    )
  ).rows[0];

test('prints a working key and nothing else; creates the workspace on free, then keeps or changes its plan', async () => {
  const name = `Dev ${newId()}`;
  const first = await devSvcKey(['--scopes', 'crm.leads.read,crm.leads.create', '--workspace', name]);
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/^svc_live_[A-Za-z0-9]{32}\n$/);
  const key = first.stdout.trim();
  expect(await workspaceOf(key)).toMatchObject({
    name,
    plan: 'free',
    svc_plan: 'free',
    environment: 'live',
    scopes: ['crm.leads.read', 'crm.leads.create'],
    ip_allow_list: [],
    expires_at: null,
    created_by: null,
  });
  const res = await call(platform.workspaceUrl, 'GET', '/api/v1/leads', { headers: svcHeaders(key) });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-ratelimit-limit')).toBe('100');

  const second = (await devSvcKey(['--scopes', 'read-only', '--workspace', name, '--plan', 'pro'])).stdout.trim();
  const ws = await workspaceOf(second);
  expect(ws).toMatchObject({ name, svc_plan: 'pro' });
  expect(ws.id).toBe((await workspaceOf(key)).id);
  expect((await devSvcKey(['--scopes', 'read-only', '--workspace', name])).code).toBe(0);
  expect((await platform.db.query('select svc_plan from workspaces where id = $1', [ws.id])).rows[0].svc_plan).toBe('pro');
});

test('--env, --ip-allow, --expires, enterprise contract limits and --owner', async () => {
  const owner = newId();
  await platform.db.query("insert into modules (code, name) values ('dev', 'Development') on conflict do nothing");
  await platform.db.query(
    `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status) values ($1, 'dev', 'dev', 'Owner', 'USER', 'ACTIVE')`,
    [owner],
  );
  const out = await devSvcKey([
    '--scopes',
    'crm.*',
    '--workspace',
    `Dev ${newId()}`,
    '--env',
    'test',
    '--ip-allow',
    '127.0.0.1, 10.0.0.0/8,2001:db8::/32',
    '--expires',
    '2099-01-01T00:00:00Z',
    '--plan',
    'enterprise',
    '--rate-per-hour',
    '123456',
    '--rate-per-minute',
    '789',
    '--owner',
    owner,
  ]);
  expect(out.code).toBe(0);
  const key = out.stdout.trim();
  expect(key).toMatch(/^svc_test_[A-Za-z0-9]{32}$/);
  const ws = await workspaceOf(key);
  expect(ws).toMatchObject({
    svc_plan: 'enterprise',
    svc_rate_per_hour: 123456,
    svc_rate_per_minute: 789,
    environment: 'test',
    ip_allow_list: ['127.0.0.1', '10.0.0.0/8', '2001:db8::/32'],
    expires_at: new Date('2099-01-01T00:00:00Z'),
  });
  const { rows } = await platform.db.query('select role from workspace_members where workspace_id = $1 and account_id = $2', [
    ws.id,
    owner,
  ]);
  expect(rows).toEqual([{ role: 'owner' }]);
  const res = await call(platform.workspaceUrl, 'GET', '/api/v1/leads', { headers: svcHeaders(key) });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-ratelimit-limit')).toBe('123456');
});

test('bad arguments: exit 2, a message on stderr, no key and nothing stored', async () => {
  const name = `Dev ${newId()}`;
  for (const [args, message] of [
    [['--workspace', name], '--scopes is required'],
    [['--scopes', 'crm.leads.fly', '--workspace', name], 'crm.leads.fly'],
    [['--scopes', 'read-only', '--plan', 'gold', '--workspace', name], '--plan must be one of free, pro, business, enterprise'],
    [['--scopes', 'read-only', '--env', 'dev', '--workspace', name], '--env must be one of live, test'],
    [['--scopes', 'read-only', '--ip-allow', '10.0.0.0/40', '--workspace', name], '--ip-allow'],
    [['--scopes', 'read-only', '--expires', 'tomorrow', '--workspace', name], '--expires'],
    [['--scopes', 'read-only', '--expires', '2001-01-01T00:00:00Z', '--workspace', name], '--expires must be in the future'],
    [['--scopes', 'read-only', '--owner', newId(), '--workspace', name], 'is not a registered account'],
    [['--scopes', 'read-only', '--bogus'], 'Unknown option'],
  ] as Array<[string[], string]>) {
    const out = await devSvcKey(args);
    expect({ args, code: out.code, stdout: out.stdout }).toEqual({ args, code: 2, stdout: '' });
    expect(out.stderr).toContain(message);
  }
  expect((await platform.db.query('select 1 from workspaces where name = $1', [name])).rowCount).toBe(0);
});
