// Input rules enforced by the request pipeline on every listener: ill-formed Unicode is refused naming the field,
// uuids are accepted in any case and handled in lower case, and names are trimmed and must not be blank.
import { randomUUID } from 'node:crypto';
import { count, expectError, expectOk } from '../../helpers/expect.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { testWorkspace } from '../../support/partner.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';
import { rawJson } from './support.js';

let platform: TestPlatform;
let chat: string;
let tenant: TestTenant;
let alice: TestAccount;
let bob: TestAccount;
let roomId: string;

const messagesIn = (id: string) => count(platform.db, 'select count(*) as n from messages where room_id = $1', [id]);
const roomsBy = (id: string) => count(platform.db, 'select count(*) as n from rooms where created_by = $1', [id]);

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'partner'] });
  chat = platform.chatUrl;
  tenant = await platform.tenant();
  alice = await tenant.account();
  bob = await tenant.account();
  const room = await call(chat, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Rules' } });
  expectOk(room, 201);
  roomId = room.body.data.id;
});
afterAll(async () => {
  await platform.stop();
});

describe('ill-formed Unicode', () => {
  test.each([['\\ud800'], ['\\udfff'], ['a\\ud800b'], ['\\ude00\\ud83d']])(
    'message text %s is 400 at body.text and stores nothing',
    async (escaped) => {
      const res = await call(chat, 'POST', `/api/v1/rooms/${roomId}/messages`, rawJson(alice.token, `{"text":"${escaped}"}`));
      expectError(res, 400, 'validation_failed', 'body.text');
      expect(res.body.error.message).toMatch(/well-formed Unicode/);
      expect(await messagesIn(roomId)).toBe(0);
    },
  );

  test('a surrogate encoded in a URL (CESU-8 bytes) is not a 500 in a path or a query', async () => {
    const path = await call(chat, 'GET', '/api/v1/rooms/%ED%A0%80', { token: alice.token });
    expect(path.status).toBeGreaterThanOrEqual(400);
    expect(path.status).toBeLessThan(500);
    const query = await call(chat, 'GET', '/api/v1/rooms?archived=true&q=%ED%A0%80', { token: alice.token });
    expect(query.status).toBeLessThan(500);
    const partner = await call(platform.partnerUrl, 'GET', '/api/v1/workspaces?cursor=%ED%A0%80', { token: alice.token });
    expect(partner.status).toBe(400);
  });

  test('a surrogate pair is a character like any other', async () => {
    const res = await call(chat, 'POST', `/api/v1/rooms/${roomId}/messages`, rawJson(alice.token, '{"text":"\\ud83d\\ude00 ok"}'));
    expectOk(res, 201);
    expect(res.body.data.text).toBe('\u{1F600} ok');
    const { rows } = await platform.db.query('select text from messages where id = $1', [res.body.data.id]);
    expect(rows[0].text).toBe('\u{1F600} ok');
  });

  test('a room name, a nested array entry and a property name are refused with their path', async () => {
    const before = await roomsBy(alice.id);
    expectError(
      await call(chat, 'POST', '/api/v1/rooms', rawJson(alice.token, '{"type":"GROUP","name":"x\\ud800"}')),
      400,
      'validation_failed',
      'body.name',
    );
    expectError(
      await call(
        chat,
        'POST',
        '/api/v1/rooms',
        rawJson(alice.token, '{"type":"GROUP","name":"ok","description":"fine","memberIds":["\\udbff"]}'),
      ),
      400,
      'validation_failed',
      'body.memberIds.0',
    );
    const res = await call(chat, 'POST', '/api/v1/rooms', rawJson(alice.token, '{"type":"GROUP","name":"ok","\\ud800":1}'));
    expectError(res, 400, 'validation_failed', 'body.\ufffd');
    expect(await roomsBy(alice.id)).toBe(before);
  });

  test('administration bodies too: register an account with an ill-formed tag', async () => {
    const admin = await platform.adminToken();
    const id = randomUUID();
    const res = await call(
      chat,
      'POST',
      '/api/v1/accounts/register',
      rawJson(
        admin,
        `{"id":"${id}","moduleCode":"${tenant.moduleCode}","customerAccountId":"${tenant.customer}","displayName":"D","metadata":{"tags":["a","\\ud800"]}}`,
      ),
    );
    expectError(res, 400, 'validation_failed', 'body.metadata.tags.1');
    expect(await count(platform.db, 'select count(*) as n from accounts where id = $1', [id])).toBe(0);
  });

  test('partner lead full_name and notes are 400 bad_input naming the field, and nothing is created', async () => {
    const ws = await testWorkspace(platform);
    const { key } = await ws.key(['crm_leads:write', 'crm_leads:read']);
    const headers = () => ({ 'x-api-key': key, 'idempotency-key': randomUUID() });
    const leads = () => count(platform.db, 'select count(*) as n from crm_records where workspace_id = $1', [ws.id]);
    const one = await call(
      platform.partnerUrl,
      'POST',
      '/api/v1/partner/crm/leads',
      rawJson(undefined, '{"full_name":"\\ud800"}', headers()),
    );
    expectPartnerError(one, 400, 'bad_input', { field: 'body.full_name' });
    const two = await call(
      platform.partnerUrl,
      'POST',
      '/api/v1/partner/crm/leads',
      rawJson(undefined, '{"full_name":"Ada","notes":"n\\udc00"}', headers()),
    );
    expectPartnerError(two, 400, 'bad_input', { field: 'body.notes' });
    expect(await leads()).toBe(0);
    const ok = await call(
      platform.partnerUrl,
      'POST',
      '/api/v1/partner/crm/leads',
      rawJson(undefined, '{"full_name":"Ada \\ud83d\\ude00"}', headers()),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.full_name).toBe('Ada \u{1F600}');
  });
});

describe('one uuid rule', () => {
  test('upper-case memberIds are accepted and stored in lower case', async () => {
    const carol = await tenant.account();
    const res = await call(chat, 'POST', '/api/v1/rooms', {
      token: alice.token,
      body: { type: 'GROUP', name: 'Upper', memberIds: [bob.id.toUpperCase(), carol.id.toUpperCase(), bob.id] },
    });
    expectOk(res, 201);
    expect(res.body.data.memberCount).toBe(3);
    const { rows } = await platform.db.query<{ account_id: string }>(
      'select account_id::text from room_members where room_id = $1 order by account_id',
      [res.body.data.id],
    );
    expect(rows.map((r) => r.account_id)).toEqual([alice.id, bob.id, carol.id].sort());
  });

  test('the private room of an upper-case accountId is the same room as of the lower-case one', async () => {
    const upper = await call(chat, 'POST', '/api/v1/rooms/private', { token: alice.token, body: { accountId: bob.id.toUpperCase() } });
    expectOk(upper);
    const lower = await call(chat, 'POST', '/api/v1/rooms/private', { token: alice.token, body: { accountId: bob.id } });
    expectOk(lower);
    expect(upper.body.data.id).toBe(lower.body.data.id);
    expect(await count(platform.db, "select count(*) as n from rooms where type = 'PRIVATE' and created_by = $1", [alice.id])).toBe(1);
  });

  test('paths and queries accept upper case and handlers see lower case', async () => {
    const res = await call(chat, 'GET', `/api/v1/rooms/${roomId.toUpperCase()}`, { token: alice.token });
    expectOk(res);
    expect(res.body.data.id).toBe(roomId);
    const sent = await call(chat, 'POST', `/api/v1/rooms/${roomId.toUpperCase()}/messages`, {
      token: alice.token,
      body: { text: 'upper path' },
    });
    expectOk(sent, 201);
    expect(sent.body.data.roomId).toBe(roomId);
    expect(sent.headers.get('location')).toBe(`/api/v1/rooms/${roomId}/messages/${sent.body.data.id}`);
    const channel = await call(chat, 'GET', `/api/v1/rooms?channelId=${roomId.toUpperCase()}`, { token: alice.token });
    expectOk(channel);
  });

  test('an upper-case account id registers the lower-case account', async () => {
    const admin = await platform.adminToken();
    const id = randomUUID();
    const res = await call(chat, 'POST', '/api/v1/accounts/register', {
      token: admin,
      body: { id: id.toUpperCase(), moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Upper' },
    });
    expectOk(res);
    expect(res.body.data.id).toBe(id);
    const status = await call(chat, 'PATCH', `/api/v1/accounts/${id.toUpperCase()}/status`, { token: admin, body: { status: 'ACTIVE' } });
    expectOk(status);
    expect(status.body.data.id).toBe(id);
  });

  test('malformed uuids are still refused, in any case', async () => {
    const res = await call(chat, 'POST', '/api/v1/rooms', {
      token: alice.token,
      body: { type: 'GROUP', name: 'x', memberIds: ['NOT-A-UUID'] },
    });
    expectError(res, 400, 'validation_failed', 'body.memberIds.0');
  });
});

describe('names', () => {
  test.each([[''], [' '], ['   '], ['\t\n'], ['\u00a0\u3000'], ['\u2003'], ['\ufeff\u2028']])(
    'room name %j is 400 at body.name and creates nothing',
    async (name) => {
      const before = await roomsBy(alice.id);
      const res = await call(chat, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name } });
      expectError(res, 400, 'validation_failed', 'body.name');
      expect(await roomsBy(alice.id)).toBe(before);
    },
  );

  test('a name is stored trimmed, inner whitespace kept', async () => {
    const res = await call(chat, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: '  Team\u00a0 one \n' } });
    expectOk(res, 201);
    expect(res.body.data.name).toBe('Team\u00a0 one');
    const { rows } = await platform.db.query('select name from rooms where id = $1', [res.body.data.id]);
    expect(rows[0].name).toBe('Team\u00a0 one');
  });

  test('NUL is still refused in a name', async () => {
    const res = await call(chat, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'a\u0000b' } });
    expectError(res, 400, 'validation_failed', 'body.name');
  });
});
