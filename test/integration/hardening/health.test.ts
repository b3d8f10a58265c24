// /healthz and /readyz on every listener, outside any gate: the partner listener answers them without an API key
// and without counting against (or being refused by) the rate limit; the chat listener keeps its declared ones.
import { buildListener } from '../../../src/platform/http/server.js';
import { createLogger } from '../../../src/platform/logger.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';

let platform: TestPlatform;

beforeAll(async () => {
  // One request a minute from this address: anything behind the gate is soon refused.
  platform = await startTestPlatform({ rateLimitPerMinute: 1 });
});
afterAll(async () => {
  await platform.stop();
});

const listeners: Array<[string, () => string]> = [
  ['chat', () => platform.chatUrl],
  ['partner', () => platform.partnerUrl],
];

test.each(listeners)('%s: GET /healthz is 200 {status: ok} with a request id', async (_listener, base) => {
  const res = await call(base(), 'GET', '/healthz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'ok' });
  expect(res.headers.get('x-request-id')).toMatch(/.+/);
});

test.each(listeners)('%s: GET /readyz is 200 with the state of each dependency', async (_listener, base) => {
  const res = await call(base(), 'GET', '/readyz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
});

test('partner probes pass no gate: no key, no rate counter, never 429', async () => {
  // Exhaust this platform's allowance with a gated request.
  await call(platform.partnerUrl, 'GET', '/api/v1/plans');
  expectPartnerError(await call(platform.partnerUrl, 'GET', '/api/v1/plans'), 429, 'rate_limit_exceeded');
  for (let i = 0; i < 5; i++) {
    for (const path of ['/healthz', '/readyz']) {
      const res = await call(platform.partnerUrl, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  }
  // HEAD too (load balancers often probe with it).
  expect((await call(platform.partnerUrl, 'HEAD', '/healthz')).status).toBe(200);
  // An API key is not looked at: a wrong one does not make the probe fail.
  expect((await call(platform.partnerUrl, 'GET', '/healthz', { headers: { 'x-api-key': 'live_nope' } })).status).toBe(200);
});

test('partner: another method on a probe path is 405 with Allow, in the partner envelope', async () => {
  const res = await call(platform.partnerUrl, 'POST', '/healthz', { body: {} });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('GET, HEAD');
  expect(res.body.error.code).toBe('method_not_allowed');
  expect(typeof res.body.request_id).toBe('string');
});

test('a listener whose dependencies fail answers /readyz 503 with the failing check', async () => {
  const app = await buildListener({
    name: 'probe',
    log: createLogger('silent'),
    bodyLimit: 1024,
    specification: { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} },
    handlers: {},
    context: () => ({}),
    readiness: async () => ({ ready: false, checks: { database: 'fail', redis: 'ok' } }),
    renderError: (error) => ({ body: { error: error.code } }),
  });
  try {
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'fail', checks: { database: 'fail', redis: 'ok' } });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});
