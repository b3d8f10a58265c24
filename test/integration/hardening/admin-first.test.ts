// Who may call comes first: on every operation the spec marks x-platform-admin (or, for account administration,
// x-account-admin), a caller without the role gets 403 whatever the body (invalid, malformed, absent, oversized), and
// a caller without a token gets 401; only an administrator learns about the body's shape. The table is read from the
// generated documents, so a newly marked operation is covered without a new row.
import { readFileSync } from 'node:fs';
import { expectError } from '../../helpers/expect.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { testWorkspace } from '../../support/partner.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { rawJson } from './support.js';

type Operation = { method: string; path: string; operationId: string; hasBody: boolean; refusal: string };

function adminOperations(service: string, marks: Record<string, string> = { 'x-platform-admin': 'platform_admin_required' }): Operation[] {
  const doc = JSON.parse(readFileSync(new URL(`../../../generated/openapi/${service}.json`, import.meta.url), 'utf8'));
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      for (const [mark, refusal] of Object.entries(marks)) {
        if (op?.[mark] === true)
          ops.push({ method: method.toUpperCase(), path, operationId: op.operationId, hasBody: op.requestBody !== undefined, refusal });
      }
    }
  }
  return ops;
}

const chatOps = adminOperations('chat', { 'x-platform-admin': 'platform_admin_required', 'x-account-admin': 'account_admin_required' });
const partnerOps = adminOperations('partner');

let platform: TestPlatform;
let user: TestAccount;
let admin: string;
let workspaceId: string;

/** A concrete path: module and customer codes that exist, uuids that may not. */
function concrete(path: string): string {
  return path
    .replace('{code}', 'platform')
    .replace('{customerAccountId}', 'c-1')
    .replace('{workspace_id}', workspaceId)
    .replace(/\{[^}]+\}/g, '01900000-0000-7000-8000-000000000001');
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'partner'], bodyLimitBytes: 4096 });
  user = await (await platform.tenant()).account();
  admin = await platform.adminToken();
  workspaceId = (await testWorkspace(platform, { owner: user })).id;
});
afterAll(async () => {
  await platform.stop();
});

test('the specs mark the administration operations', () => {
  expect(chatOps.map((o) => o.operationId).sort()).toEqual(
    [
      'createModule',
      'listCustomerKeys',
      'listModules',
      'refreshCustomerKeys',
      'registerAccount',
      'registerCustomerKey',
      'updateAccountMetadata',
      'updateAccountStatus',
    ]
      .concat(['createBroadcast', 'createTargetedBroadcast', 'createBot'])
      .concat(['getWorkspacePlan', 'setWorkspacePlan'])
      .concat(['eraseAccount', 'getErasure'])
      .concat(['getCustomerRetention', 'setCustomerRetention'])
      .sort(),
  );
  expect(partnerOps.map((o) => o.operationId)).toEqual(['setWorkspacePlan']);
});

const bodies: Array<[string, { rawBody?: string; headers?: Record<string, string>; body?: unknown }]> = [
  ['a body of the wrong shape', { body: { unexpected: 1 } }],
  ['malformed JSON', { rawBody: '{"id":', headers: { 'content-type': 'application/json' } }],
  ['no body', {}],
  ['a body over the size limit', { rawBody: JSON.stringify({ x: 'y'.repeat(8000) }), headers: { 'content-type': 'application/json' } }],
  ['a text/plain body', { rawBody: 'hello', headers: { 'content-type': 'text/plain' } }],
  ['ill-formed Unicode', { rawBody: '{"id":"\\ud800"}', headers: { 'content-type': 'application/json' } }],
];

/** fetch sends no body with GET. */
/** No body for a GET, else a JSON body that cannot be parsed. */
const unreadableBodyFor = (op: Operation) =>
  op.method === 'GET' ? {} : { rawBody: '{"x":', headers: { 'content-type': 'application/json' } };
const bodiesFor = (op: Operation) => (op.method === 'GET' ? bodies.filter(([what]) => what === 'no body') : bodies);

describe.each(chatOps.map((o) => [`${o.method} ${o.path}`, o] as const))('chat %s', (_label, op) => {
  test.each(bodiesFor(op))(`a non-admin sending %s gets 403 ${op.refusal}`, async (_what, body) => {
    const res = await call(platform.chatUrl, op.method, concrete(op.path), { token: user.token, ...body });
    expectError(res, 403, op.refusal);
    expect(res.body.error.details).toBeUndefined();
  });

  test('no token is 401 whatever the body', async () => {
    const res = await call(platform.chatUrl, op.method, concrete(op.path), unreadableBodyFor(op));
    expectError(res, 401, 'unauthenticated');
  });

  if (op.hasBody) {
    test('an administrator with a body of the wrong shape learns what is wrong', async () => {
      const res = await call(platform.chatUrl, op.method, concrete(op.path), { token: admin, body: { unexpected: 1 } });
      expectError(res, 400, 'validation_failed', 'body.unexpected');
    });
  }
});

describe.each(partnerOps.map((o) => [`${o.method} ${o.path}`, o] as const))('partner %s', (_label, op) => {
  test.each(bodiesFor(op))('a non-admin (even the workspace owner) sending %s gets 403 platform_admin_required', async (_what, body) => {
    const res = await call(platform.partnerUrl, op.method, concrete(op.path), { token: user.token, ...body });
    expectPartnerError(res, 403, 'platform_admin_required');
  });

  test('an administrator with a body of the wrong shape learns what is wrong', async () => {
    const res = await call(platform.partnerUrl, op.method, concrete(op.path), { token: admin, body: { unexpected: 1 } });
    expectPartnerError(res, 400, 'bad_input');
  });
});

test('a non-admin cannot tell an existing account from a missing one or a valid body from an invalid one', async () => {
  const target = await (await platform.tenant()).account();
  const answers = await Promise.all([
    call(platform.chatUrl, 'PATCH', `/api/v1/accounts/${target.id}/status`, { token: user.token, body: { status: 'BANNED' } }),
    call(platform.chatUrl, 'PATCH', '/api/v1/accounts/01900000-0000-7000-8000-000000000009/status', {
      token: user.token,
      body: { status: 'BANNED' },
    }),
    call(platform.chatUrl, 'PATCH', `/api/v1/accounts/${target.id}/status`, rawJson(user.token, '{"status":"NOPE"}')),
  ]);
  for (const res of answers) expectError(res, 403, 'account_admin_required');
  const { rows } = await platform.db.query('select status from accounts where id = $1', [target.id]);
  expect(rows[0].status).toBe('ACTIVE');
});
