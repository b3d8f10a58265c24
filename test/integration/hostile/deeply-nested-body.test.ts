// "[" * 5000 + "]" * 5000 (10 KB) overflowed the stack of a recursive walk over the body: a 500 on every listener.
// Bodies nesting deeper than 32 levels are refused 400 in each interface's envelope, before anything walks them;
// the Bot API's JSON form fields are bounded the same way. Nothing is created.
import { randomUUID } from 'node:crypto';
import { count, expectError } from '../../helpers/expect.js';
import { createBot, expectBotError, type TestBot } from '../../helpers/bots.js';
import { expectPartnerError, keyHeaders } from '../../helpers/partner-expect.js';
import { expectSvcError, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';
import { testWorkspace } from '../../support/partner.js';
import { svcWorkspace } from '../../support/workspace.js';
import { maxBodyDepth } from '../../../src/platform/json-depth.js';

let platform: TestPlatform;
let tenant: TestTenant;
let alice: TestAccount;
let bot: TestBot;

beforeAll(async () => {
  platform = await startTestPlatform();
  tenant = await platform.tenant();
  alice = await tenant.account();
  bot = await createBot(platform, tenant);
});
afterAll(async () => {
  await platform?.stop();
});

const brackets = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
/** An object nesting `levels` levels in all: {"a":{"a":...{}}}. */
const nested = (levels: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
};
const json = (token: string | undefined, body: string, headers: Record<string, string> = {}) => ({
  ...(token ? { token } : {}),
  rawBody: body,
  headers: { 'content-type': 'application/json', ...headers },
});

test('chat: 5,000 nested arrays as the body of POST /rooms is 400 validation_failed at body, no room made', async () => {
  const rooms = () => count(platform.db, 'select count(*) as n from room_members where account_id = $1', [alice.id]);
  const before = await rooms();
  const res = await call(platform.chatUrl, 'POST', '/api/v1/rooms', json(alice.token, brackets(5000)));
  expectError(res, 400, 'validation_failed', 'body');
  expect(res.body.error.message).toContain(`deeper than ${maxBodyDepth} levels`);
  expect(await rooms()).toBe(before);
});

test('chat: accounts/register with deeply nested metadata is refused and registers nothing', async () => {
  const admin = await platform.adminToken();
  const id = randomUUID();
  const res = await call(platform.chatUrl, 'POST', '/api/v1/accounts/register', {
    token: admin,
    body: { id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Deep', metadata: nested(maxBodyDepth) },
  });
  expectError(res, 400, 'validation_failed', 'body');
  expectError(
    await call(platform.chatUrl, 'POST', '/api/v1/accounts/register', json(admin, brackets(5000))),
    400,
    'validation_failed',
    'body',
  );
  expect(await count(platform.db, 'select count(*) as n from accounts where id = $1', [id])).toBe(0);
});

test('the bound is exact: 32 levels reach validation, 33 are refused for their depth', async () => {
  const at = await call(platform.chatUrl, 'POST', '/api/v1/rooms', json(alice.token, brackets(maxBodyDepth)));
  expectError(at, 400, 'validation_failed');
  expect(at.body.error.message).not.toContain('deeper than');
  const over = await call(platform.chatUrl, 'POST', '/api/v1/rooms', json(alice.token, brackets(maxBodyDepth + 1)));
  expectError(over, 400, 'validation_failed', 'body');
  expect(over.body.error.message).toContain('deeper than');
});

test('partner: 5,000 nested arrays is 400 bad_input', async () => {
  const key = (await (await testWorkspace(platform)).key(['crm_leads:*'])).key;
  const res = await call(
    platform.partnerUrl,
    'POST',
    '/api/v1/partner/crm/leads',
    json(undefined, brackets(5000), keyHeaders(key, randomUUID())),
  );
  expectPartnerError(res, 400, 'bad_input');
});

test('workspace: 5,000 nested arrays is 400 invalid_request', async () => {
  const key = (await (await svcWorkspace(platform)).key(['ticket.*'])).key;
  const res = await call(platform.workspaceUrl, 'POST', '/api/v1/tickets', json(undefined, brackets(5000), svcHeaders(key)));
  expectSvcError(res, 400, 'invalid_request');
});

test('Bot API: a nested JSON body and a nested reply_markup form field are 400 in the Bot API envelope', async () => {
  const asJson = await call(platform.chatUrl, 'POST', `/bot${bot.token}/sendMessage`, json(undefined, brackets(5000)));
  expectBotError(asJson, 400, /^Bad Request: /);
  const form = new URLSearchParams({ chat_id: randomUUID(), text: 'hi', reply_markup: brackets(5000) }).toString();
  const asForm = await call(platform.chatUrl, 'POST', `/bot${bot.token}/sendMessage`, {
    rawBody: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expectBotError(asForm, 400, /deeper than 32 levels/);
});
