// The reference pages and raw documents of every listener, the console's static files and config, and CORS for the
// console's origin, against the real listeners. These paths pass no gate: no key, no token, no rate counter.
import { readFile } from 'node:fs/promises';
import { isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';

let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
beforeAll(async () => {
  // A low partner rate limit shows that these paths are not counted; the counter is per IP in Redis, so this file
  // has a Redis database apart from the files that call the partner API from 127.0.0.1 (it shares error-table's,
  // which runs the workspace listener alone, without workers; so does this file).
  infra = await isolatedInfra();
  platform = await startTestPlatform({
    services: ['chat', 'partner', 'workspace'],
    rateLimitPerMinute: 3,
    consoleOrigins: ['http://console.test:8443'],
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
  });
});
afterAll(async () => {
  await platform?.stop();
  await infra?.drop();
});

const generated = async (name: string) =>
  JSON.parse(await readFile(new URL(`../../../generated/openapi/${name}.json`, import.meta.url), 'utf8'));

describe.each([
  ['chat', () => platform.chatUrl],
  ['partner', () => platform.partnerUrl],
  ['workspace', () => platform.workspaceUrl],
])('the %s listener', (name, base) => {
  test('serves its own generated document at /openapi.json, without credentials, as many times as asked', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base()}/openapi.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      expect(await res.json()).toEqual(await generated(name));
    }
  });

  test('renders /docs/ with the bundled reference script pointing at /openapi.json; /docs redirects', async () => {
    const redirect = await fetch(`${base()}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/docs/');
    const page = await fetch(`${base()}/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('/openapi.json');
    // Scalar's assistant and developer toolbar (Ask AI, Deploy, Generate SDK) are switched off in the page's settings.
    expect(html).toMatch(/"?agent"?:\s*\{\s*"?disabled"?:\s*true/);
    expect(html).toMatch(/"?showDeveloperTools"?:\s*"never"/);
    expect(html).toContain('js/scalar.js');
    expect(html).not.toMatch(/https?:\/\/(cdn|fonts)\./);
    const script = await fetch(`${base()}/docs/js/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});

test('the chat listener also renders the Bot API document at /openapi/bot.json', async () => {
  const raw = await fetch(`${platform.chatUrl}/openapi/bot.json`);
  expect(raw.status).toBe(200);
  expect(await raw.json()).toEqual(await generated('bot'));
  const html = await (await fetch(`${platform.chatUrl}/docs/`)).text();
  expect(html).toContain('/openapi/bot.json');
  expect((await fetch(`${platform.partnerUrl}/openapi/bot.json`)).status).toBe(404);
});

test('the partner gate still refuses a key path without a key (the public paths are exact)', async () => {
  const res = await fetch(`${platform.partnerUrl}/api/v1/partner/crm/leads`);
  expect(res.status).toBe(401);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
});

test('the chat listener serves the console and tells it where the other listeners are', async () => {
  const redirect = await fetch(`${platform.chatUrl}/console`, { redirect: 'manual' });
  expect(redirect.status).toBe(302);
  expect(redirect.headers.get('location')).toBe('/console/');
  const config = await (await fetch(`${platform.chatUrl}/console/config.json`)).json();
  expect(config).toEqual({
    partner: { port: Number(new URL(platform.partnerUrl).port) },
    workspace: { port: Number(new URL(platform.workspaceUrl).port) },
  });
  const page = await fetch(`${platform.chatUrl}/console/`);
  // 200 with the app once `npm run build:console` has run; 503 with the command to run otherwise.
  expect([
    { status: 200, text: expect.stringContaining('<div id="app">') },
    { status: 503, text: expect.stringContaining('build:console') },
  ]).toContainEqual({ status: page.status, text: await page.text() });
});

/** The listener and a path of it behind its gate, for the preflight tests. */
function preflightTarget(name: string): { base: string; path: string } {
  return name === 'partner'
    ? { base: platform.partnerUrl, path: '/api/v1/workspaces' }
    : { base: platform.workspaceUrl, path: '/api/v1/workspaces/0192f000-0000-7000-8000-000000000001/svc-keys' };
}

describe('CORS for the console origin', () => {
  const origin = 'http://console.test:8443';
  test.each([['partner'], ['workspace']])(
    'the %s listener answers the preflight before its gate, and only for the listed origin',
    async (name) => {
      const { base, path } = preflightTarget(name);
      for (let i = 0; i < 5; i++) {
        const pre = await fetch(`${base}${path}`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
        });
        expect(pre.status).toBe(204);
        expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
        expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
        expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      }
      const other = await fetch(`${base}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
      });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      // An error answer still carries the header, so the console can show it.
      const refused = await fetch(`${base}${path}`, { headers: { origin } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
      expect(refused.headers.get('access-control-expose-headers')).toContain('x-request-id');
    },
  );
});
