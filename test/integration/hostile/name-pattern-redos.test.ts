// A long name ending in U+0000 froze the whole process: the "not all blank" pattern backtracked quadratically and
// Ajv ran it even after maxLength had failed. Each interface answers such names 400 in its own envelope, naming the
// length, and the process keeps answering others meanwhile.
import { randomUUID } from 'node:crypto';
import { expectError } from '../../helpers/expect.js';
import { expectPartnerError, keyHeaders } from '../../helpers/partner-expect.js';
import { expectSvcError, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { testWorkspace } from '../../support/partner.js';
import { svcWorkspace } from '../../support/workspace.js';

let platform: TestPlatform;
let alice: TestAccount;
let partnerKey: string;
let svcKey: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  alice = await (await platform.tenant()).account();
  partnerKey = (await (await testWorkspace(platform)).key(['webhooks:manage'])).key;
  svcKey = (await (await svcWorkspace(platform)).key(['ticket.*'])).key;
});
afterAll(async () => {
  await platform?.stop();
});

const hostile = (n: number) => `${'a'.repeat(n)}\u0000`;

test('a 262,000-character label name ending in U+0000 is 400 at body.name for its length, and healthz answers meanwhile', async () => {
  const [res, health] = await Promise.all([
    call(platform.chatUrl, 'POST', '/api/v1/me/labels', { token: alice.token, body: { name: hostile(262_000), color: '#000000' } }),
    call(platform.partnerUrl, 'GET', '/healthz'),
  ]);
  expectError(res, 400, 'validation_failed', 'body.name');
  expect(res.body.error.details.find((d: { location: string }) => d.location === 'body.name').message).toMatch(/more than 64 characters/);
  expect(health.status).toBe(200);
  const labels = await call(platform.chatUrl, 'GET', '/api/v1/me/labels', { token: alice.token });
  expect(labels.body.data).toEqual([]);
});

test('a 64,000-character ticket subject ending in U+0000 is 400 invalid_request', async () => {
  const res = await call(platform.workspaceUrl, 'POST', '/api/v1/tickets', {
    headers: svcHeaders(svcKey),
    body: { subject: hostile(64_000) },
  });
  expectSvcError(res, 400, 'invalid_request', 'subject');
});

test('a 64,000-character partner webhook name ending in U+0000 is 400 bad_input', async () => {
  const res = await call(platform.partnerUrl, 'POST', '/api/v1/webhooks', {
    headers: keyHeaders(partnerKey, randomUUID()),
    body: { name: hostile(64_000), url: 'https://hooks.example.com/in', events: ['contact.created'] },
  });
  expectPartnerError(res, 400, 'bad_input');
  expect(JSON.stringify(res.body.error)).toContain('name');
});

test('a name within its length still gets the pattern rule: blank-only and U+0000 are refused, text with blanks around is trimmed', async () => {
  const post = (name: string) =>
    call(platform.chatUrl, 'POST', '/api/v1/me/labels', { token: alice.token, body: { name, color: '#000000' } });
  expectError(await post(' \t\u3000 '), 400, 'validation_failed', 'body.name');
  expectError(await post('ok\u0000'), 400, 'validation_failed', 'body.name');
  const made = await post('  Work  ');
  expect(made.status).toBe(200);
  expect(made.body.data.name).toBe('Work');
});
