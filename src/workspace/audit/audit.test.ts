// The audit log: every request made with a found key (time, IP, method, endpoint, status, key) is buffered and
// written in batches, never on the request path; its key's last use with it; listed for Owner and Admin with
// filters over the last 30 days.
import { count } from '../../../test/helpers/expect.js';
import { expectSvcError, svcHeaders } from '../../../test/helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../../test/support/workspace.js';
import { ManualClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';

let platform: TestPlatform;
let base: string;
const clock = new ManualClock();

beforeAll(async () => {
  // An interval long enough never to fire here: only explicit flushes write.
  platform = await startTestPlatform({ services: ['workspace'], svcAuditFlushMs: 3_600_000 }, clock);
  base = platform.workspaceUrl;
});
afterAll(async () => {
  await platform.stop();
});
beforeEach(() => clock.set(new Date()));

const logPath = (ws: SvcWorkspace, query = '') => `/api/v1/workspaces/${ws.id}/svc-audit-log${query}`;
const entries = (ws: SvcWorkspace) => count(platform.db, 'select count(*) as n from svc_audit_log where workspace_id = $1', [ws.id]);

/** Waits up to about 2 s for the workspace to have at least n entries; the test asserts the count itself. */
async function untilEntries(ws: SvcWorkspace, n: number): Promise<void> {
  for (let i = 0; i < 100 && (await entries(ws)) < n; i++) await new Promise((r) => setTimeout(r, 20));
}

test("requests are recorded in memory and written by the flush, with their status and the key's last use", async () => {
  const ws = await svcWorkspace(platform);
  const reader = await ws.key(['crm.leads.read']);
  const t0 = clock.now();
  expect((await call(base, 'GET', '/api/v1/leads?limit=5&status=new', { headers: svcHeaders(reader.key) })).status).toBe(200);
  clock.advance(1000);
  expectSvcError(await call(base, 'POST', '/api/v1/leads', { headers: svcHeaders(reader.key), body: { name: 'x' } }), 403, 'forbidden');
  clock.advance(1000);
  expectSvcError(await call(base, 'GET', `/api/v1/leads/${newId()}`, { headers: svcHeaders(reader.key) }), 404, 'not_found');
  // Nothing reached the database on the request path.
  expect(await entries(ws)).toBe(0);
  expect((await platform.db.query('select last_used_at from svc_keys where id = $1', [reader.id])).rows[0].last_used_at).toBeNull();

  await platform.flushSvcAudit!();
  const res = await call(base, 'GET', logPath(ws), { token: ws.owner.token });
  expect(res.status).toBe(200);
  expect(res.body.items.map((e: Record<string, unknown>) => [e.method, e.endpoint, e.status_code])).toEqual([
    ['GET', expect.stringMatching(/^\/api\/v1\/leads\/[0-9a-f-]{36}$/), 404],
    ['POST', '/api/v1/leads', 403],
    ['GET', '/api/v1/leads', 200],
  ]);
  expect(res.body.items[2]).toEqual({
    id: expect.any(String),
    time: t0.toISOString(),
    key_id: reader.id,
    ip: '127.0.0.1',
    method: 'GET',
    endpoint: '/api/v1/leads',
    status_code: 200,
  });
  expect(res.body.next_cursor).toBeNull();
  const { rows } = await platform.db.query('select last_used_at from svc_keys where id = $1', [reader.id]);
  expect(rows[0].last_used_at).toEqual(new Date(t0.getTime() + 2000));
});

test('refused requests of a found key are recorded (revoked 401, ip_not_allowed); unknown keys and user requests are not', async () => {
  const ws = await svcWorkspace(platform);
  const revoked = await ws.key(['crm.read']);
  await platform.db.query('update svc_keys set revoked_at = $2 where id = $1', [revoked.id, clock.now()]);
  const fenced = await ws.key(['crm.read'], { ipAllowList: ['203.0.113.0/24'] });
  expectSvcError(await call(base, 'GET', '/api/v1/leads', { headers: svcHeaders(revoked.key) }), 401, 'unauthorized');
  expectSvcError(await call(base, 'GET', '/api/v1/leads', { headers: svcHeaders(fenced.key) }), 403, 'ip_not_allowed');
  expectSvcError(await call(base, 'GET', '/api/v1/leads', { headers: svcHeaders('svc_live_' + 'A'.repeat(32)) }), 401, 'unauthorized');
  expect((await call(base, 'GET', logPath(ws), { token: ws.owner.token })).status).toBe(200);
  await platform.flushSvcAudit!();
  const { rows } = await platform.db.query(
    'select key_id, status_code from svc_audit_log where workspace_id = $1 order by time, status_code',
    [ws.id],
  );
  expect(rows.sort((a, b) => a.status_code - b.status_code)).toEqual([
    { key_id: revoked.id, status_code: 401 },
    { key_id: fenced.id, status_code: 403 },
  ]);
});

test('filters: key, status code, time range; the last 30 days only; pages newest first', async () => {
  const ws = await svcWorkspace(platform);
  const a = await ws.key(['crm.read']);
  const b = await ws.key(['crm.read']);
  const now = clock.now().getTime();
  const at = (msAgo: number) => new Date(now - msAgo);
  const rows: Array<[string, Date, number]> = [
    [a.id, at(31 * 86_400_000), 200],
    [a.id, at(29 * 86_400_000), 200],
    [b.id, at(3_600_000), 403],
    [a.id, at(60_000), 200],
    [b.id, at(1000), 200],
  ];
  for (const [keyId, time, status] of rows) {
    await platform.db.query(
      `insert into svc_audit_log (id, workspace_id, key_id, time, ip, method, endpoint, status_code) values ($1, $2, $3, $4, '127.0.0.1', 'GET', '/api/v1/leads', $5)`,
      [newId(), ws.id, keyId, time, status],
    );
  }
  const list = async (query: string) => {
    const res = await call(base, 'GET', logPath(ws, query), { token: ws.owner.token });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body.items.map((e: { time: string; key_id: string; status_code: number }) => [e.key_id, e.time, e.status_code]);
  };
  const view = (i: number) => [rows[i]![0], rows[i]![1].toISOString(), rows[i]![2]];
  expect(await list('')).toEqual([view(4), view(3), view(2), view(1)]);
  expect(await list(`?key_id=${a.id}`)).toEqual([view(3), view(1)]);
  expect(await list('?status_code=403')).toEqual([view(2)]);
  expect(
    await list(`?from=${encodeURIComponent(at(2 * 3_600_000).toISOString())}&to=${encodeURIComponent(at(1000).toISOString())}`),
  ).toEqual([view(3), view(2)]);
  // A from older than 30 days reads as 30 days ago.
  expect(await list(`?from=${encodeURIComponent(at(40 * 86_400_000).toISOString())}`)).toHaveLength(4);

  const first = await call(base, 'GET', logPath(ws, '?limit=3'), { token: ws.owner.token });
  expect(first.body.items).toHaveLength(3);
  const second = await call(base, 'GET', logPath(ws, `?limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`), {
    token: ws.owner.token,
  });
  expect(second.body.items.map((e: { time: string }) => e.time)).toEqual([view(1)[1]]);
  expect(second.body.next_cursor).toBeNull();
  expectSvcError(await call(base, 'GET', logPath(ws, '?cursor=nope'), { token: ws.owner.token }), 400, 'invalid_request', 'query.cursor');
  expectSvcError(await call(base, 'GET', logPath(ws, '?status_code=99'), { token: ws.owner.token }), 400, 'invalid_request');

  // Another workspace's entries never show.
  const other = await svcWorkspace(platform);
  expect((await call(base, 'GET', logPath(other), { token: other.owner.token })).body.items).toEqual([]);
  expectSvcError(await call(base, 'GET', logPath(ws), { token: other.owner.token }), 404, 'not_found');
  const admin = await ws.member('admin');
  expect((await call(base, 'GET', logPath(ws), { token: admin.token })).body.items).toHaveLength(4);
});

test('entries still buffered at shutdown are written', async () => {
  const node = await startTestPlatform({ services: ['workspace'], svcAuditFlushMs: 3_600_000 });
  const ws = await svcWorkspace(node);
  const { key } = await ws.key(['crm.read']);
  for (let i = 0; i < 3; i++)
    expect((await call(node.workspaceUrl, 'GET', '/api/v1/leads', { headers: svcHeaders(key) })).status).toBe(200);
  expect(await entries(ws)).toBe(0);
  await node.stop();
  expect(await entries(ws)).toBe(3);
});

test('a full batch is written without waiting for the interval', async () => {
  const ws = await svcWorkspace(platform, { plan: 'enterprise', perHour: 1_000_000, perMinute: 100_000 });
  const { key } = await ws.key(['crm.read']);
  await platform.flushSvcAudit!();
  for (let i = 0; i < 1000; i += 50) {
    await Promise.all(Array.from({ length: 50 }, () => call(base, 'GET', '/api/v1/scopes', { headers: svcHeaders(key) })));
  }
  // The thousandth entry triggers the write of the batch.
  await untilEntries(ws, 1000);
  expect(await entries(ws)).toBe(1000);
  expect(await count(platform.db, 'select count(*) as n from svc_audit_log where workspace_id = $1 and status_code = 200', [ws.id])).toBe(
    1000,
  );
});
