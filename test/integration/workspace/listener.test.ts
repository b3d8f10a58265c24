// The workspace listener: WORKSPACE_PORT and SERVICES, probes, X-Request-ID on every response, and every framework
// error (unknown route, wrong method, bad JSON, wrong media type, oversized body, schema violations) in the
// { error, message } envelope.
import { ConfigError, loadConfig } from '../../../src/platform/config/index.js';
import { expectSvcError, expectSvcRateHeaders, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';

let platform: TestPlatform;
let base: string;
let ws: SvcWorkspace;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['workspace'], bodyLimitBytes: 4096 });
  base = platform.workspaceUrl;
  ws = await svcWorkspace(platform);
  key = (await ws.key(['crm.*'])).key;
});
afterAll(async () => {
  await platform.stop();
});

describe('configuration', () => {
  test('WORKSPACE_PORT defaults to 8082 and SERVICES lists workspace by default', () => {
    const config = loadConfig({});
    expect(config.workspacePort).toBe(8082);
    expect(config.services).toEqual(['chat', 'partner', 'workspace', 'workers']);
    expect(loadConfig({ WORKSPACE_PORT: '9000', SERVICES: 'workspace' })).toMatchObject({ workspacePort: 9000, services: ['workspace'] });
    expect(() => loadConfig({ WORKSPACE_PORT: 'x' })).toThrow(ConfigError);
    expect(() => loadConfig({ SERVICES: 'workspaces' })).toThrow(/known: chat, partner, workspace, workers/);
  });
  test('SERVICES=workspace runs the workspace listener alone', () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(platform.chatUrl).toBe('');
    expect(platform.partnerUrl).toBe('');
  });
});

describe('probes', () => {
  test('/healthz and /readyz answer 200 with X-Request-ID, whatever credential comes along', async () => {
    for (const headers of [{}, svcHeaders('svc_live_notakeyatall'), { authorization: 'Bearer nonsense' }]) {
      const health = await call(base, 'GET', '/healthz', { headers });
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok' });
      expect(health.headers.get('x-request-id')).toBeTruthy();
      const ready = await call(base, 'GET', '/readyz', { headers });
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    }
  });
});

describe('X-Request-ID', () => {
  test('a well-formed incoming id is echoed; anything else is replaced by a fresh one', async () => {
    const echoed = await call(base, 'GET', '/api/v1/leads', { headers: { ...svcHeaders(key), 'x-request-id': 'trace-42.a:b' } });
    expect(echoed.status).toBe(200);
    expect(echoed.headers.get('x-request-id')).toBe('trace-42.a:b');
    const replaced = await call(base, 'GET', '/api/v1/leads', { headers: { ...svcHeaders(key), 'x-request-id': 'has space' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const anonymous = await call(base, 'GET', '/api/v1/scopes');
    expect(anonymous.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('framework errors in the { error, message } envelope', () => {
  test('unknown paths are 404 not_found, with or without a key', async () => {
    expectSvcError(await call(base, 'GET', '/api/v1/nothing-here'), 404, 'not_found');
    expectSvcError(await call(base, 'GET', '/elsewhere'), 404, 'not_found');
    const withKey = await call(base, 'GET', '/api/v1/gadgets', { headers: svcHeaders(key) });
    expectSvcError(withKey, 404, 'not_found');
    expectSvcRateHeaders(withKey);
  });
  test('a method the path lacks is 405 method_not_allowed with Allow', async () => {
    const res = await call(base, 'DELETE', '/api/v1/leads', { headers: svcHeaders(key) });
    expectSvcError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD');
  });
  test('bad JSON is 400 invalid_request; a schema violation names the field; nothing is stored', async () => {
    const before = await platform.db.query('select count(*)::int as n from crm_records where workspace_id = $1', [ws.id]);
    expectSvcError(
      await call(base, 'POST', '/api/v1/leads', {
        headers: { ...svcHeaders(key), 'content-type': 'application/json' },
        rawBody: '{"name":',
      }),
      400,
      'invalid_request',
    );
    expectSvcError(await call(base, 'POST', '/api/v1/leads', { headers: svcHeaders(key), body: {} }), 400, 'invalid_request', 'body.name');
    expectSvcError(
      await call(base, 'POST', '/api/v1/leads', { headers: svcHeaders(key), body: { name: 'x', color: 'red' } }),
      400,
      'invalid_request',
      'body.color',
    );
    expectSvcError(await call(base, 'GET', '/api/v1/leads?limit=0', { headers: svcHeaders(key) }), 400, 'invalid_request', 'query.limit');
    expectSvcError(await call(base, 'GET', '/api/v1/leads/not-a-uuid', { headers: svcHeaders(key) }), 400, 'invalid_request');
    const after = await platform.db.query('select count(*)::int as n from crm_records where workspace_id = $1', [ws.id]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
  test('a body that is not JSON is 415 unsupported_media_type; an oversized one 413 payload_too_large', async () => {
    expectSvcError(
      await call(base, 'POST', '/api/v1/leads', { headers: { ...svcHeaders(key), 'content-type': 'text/plain' }, rawBody: 'name=x' }),
      415,
      'unsupported_media_type',
    );
    expectSvcError(
      await call(base, 'POST', '/api/v1/leads', { headers: svcHeaders(key), body: { name: 'x', note: 'n'.repeat(5000) } }),
      413,
      'payload_too_large',
    );
  });
});
