// Cursors are signed: a hand-built, altered or foreign cursor is 400 invalid_cursor on the chat listener and
// 400 bad_input at query.cursor on the partner listener, never a 500; every node signs with one shared secret.
import { randomUUID } from 'node:crypto';
import { loadConfig, ConfigError } from '../../../src/platform/config/index.js';
import { cursorInstant, cursorInt, cursorUuid, decodeCursor, encodeCursor } from '../../../src/platform/http/cursor.js';
import { newId } from '../../../src/platform/ids.js';
import { count, expectError, expectOk } from '../../helpers/expect.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { testWorkspace, type TestWorkspace } from '../../support/partner.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { cursorSignedWith, storedCursorSecret, unsignedCursor } from './support.js';
import { historyList } from '../../../src/chat/messages/service.js';

let nodeA: TestPlatform;
let nodeB: TestPlatform;
let alice: TestAccount;
let roomId: string;
let ws: TestWorkspace;
let leadKey: string;

const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

// The values that answered 500 when the landed server was probed.
const hostileValues = ['+275760-09-13T00:00:00Z', '0000-01-01', '1'];
const hostileCursors = [
  ...hostileValues.map((a) => unsignedCursor({ a, i: newId() })),
  ...hostileValues.map((a) => unsignedCursor(a)),
  unsignedCursor({ s: 1 }),
  unsignedCursor({ r: 'leads', i: newId() }),
  'garbage',
];

beforeAll(async () => {
  [nodeA, nodeB] = await Promise.all([
    startTestPlatform({ services: ['chat', 'partner'] }),
    startTestPlatform({ services: ['chat', 'partner'] }),
  ]);
  const tenant = await nodeA.tenant();
  alice = await tenant.account();
  const room = await call(nodeA.chatUrl, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Cursors' } });
  expectOk(room, 201);
  roomId = room.body.data.id;
  for (let i = 0; i < 5; i++)
    expectOk(await call(nodeA.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: alice.token, body: { text: `m${i}` } }), 201);
  for (let i = 0; i < 3; i++) {
    expectOk(await call(nodeA.chatUrl, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: `R${i}` } }), 201);
  }
  ws = await testWorkspace(nodeA, { owner: alice });
  leadKey = (await ws.key(['crm_leads:read', 'crm_leads:write'])).key;
  for (let i = 0; i < 3; i++) {
    const res = await call(nodeA.partnerUrl, 'POST', '/api/v1/partner/crm/leads', {
      headers: { 'x-api-key': leadKey, 'idempotency-key': randomUUID() },
      body: { full_name: `Lead ${i}` },
    });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
});

describe('chat listener', () => {
  test.each(hostileCursors.map((c) => [c]))('GET /rooms?cursor=%s is 400 invalid_cursor', async (cursor) => {
    const res = await call(nodeA.chatUrl, 'GET', `/api/v1/rooms?cursor=${cursor}`, { token: alice.token });
    expectError(res, 400, 'invalid_cursor', 'query.cursor');
  });

  test.each([['before'], ['after']])('GET messages?%s= with a hand-built cursor is 400 invalid_cursor', async (dir) => {
    for (const cursor of [
      ...hostileCursors,
      unsignedCursor({ s: 9_007_199_254_740_993 }) /* eslint-disable-line no-loss-of-precision -- a seq past the safe range, on purpose */,
      unsignedCursor({ s: 2 }),
    ]) {
      const res = await call(nodeA.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?${dir}=${cursor}`, { token: alice.token });
      expectError(res, 400, 'invalid_cursor', `query.${dir}`);
    }
  });

  test('an issued cursor pages, on the node that issued it and on another node; altered by one character it is refused', async () => {
    const first = await call(nodeA.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=2`, { token: alice.token });
    expectOk(first);
    const cursor: string = first.body.meta.nextCursor;
    expect(typeof cursor).toBe('string');
    const onB = await call(nodeB.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=2&before=${cursor}`, { token: alice.token });
    expectOk(onB);
    expect(onB.body.data.map((m: { text: string }) => m.text)).toEqual(['m1', 'm2']);

    for (const i of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
      // Flipping the high bit of a base64url digit always changes a data bit (the low bits of the last digit may be padding).
      const altered = cursor.slice(0, i) + base64url[base64url.indexOf(cursor[i]!) ^ 32] + cursor.slice(i + 1);
      const res = await call(nodeB.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?before=${altered}`, { token: alice.token });
      expectError(res, 400, 'invalid_cursor', 'query.before');
    }
    // Truncated: the tag no longer matches.
    expectError(
      await call(nodeA.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?before=${cursor.slice(0, -3)}`, { token: alice.token }),
      400,
      'invalid_cursor',
    );
  });

  test('the room list pages through issued cursors', async () => {
    const first = await call(nodeA.chatUrl, 'GET', '/api/v1/rooms?limit=2', { token: alice.token });
    expectOk(first);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await call(nodeB.chatUrl, 'GET', `/api/v1/rooms?limit=2&cursor=${first.body.meta.nextCursor}`, { token: alice.token });
    expectOk(second);
    expect(second.body.data).toHaveLength(2);
  });

  test('a cursor signed with another secret is refused; one signed with the stored secret is accepted', async () => {
    const secret = await storedCursorSecret(nodeA.db);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const foreign = cursorSignedWith('x'.repeat(43), { s: 3 }, historyList(roomId, false));
    expectError(
      await call(nodeA.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?before=${foreign}`, { token: alice.token }),
      400,
      'invalid_cursor',
    );
    const own = cursorSignedWith(secret, { s: 3 }, historyList(roomId, false));
    const res = await call(nodeB.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?before=${own}`, { token: alice.token });
    expectOk(res);
    expect(res.body.data.map((m: { text: string }) => m.text)).toEqual(['m0', 'm1']);
  });

  test('a signed cursor holding a timestamp PostgreSQL cannot read is refused before SQL', async () => {
    const secret = await storedCursorSecret(nodeA.db);
    for (const a of ['+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00.000Z']) {
      const res = await call(nodeA.chatUrl, 'GET', `/api/v1/rooms?cursor=${cursorSignedWith(secret, { a, i: newId() })}`, {
        token: alice.token,
      });
      expectError(res, 400, 'invalid_cursor', 'query.cursor');
    }
  });
});

describe('partner listener', () => {
  const expectBadCursor = (res: Awaited<ReturnType<typeof call>>) => expectPartnerError(res, 400, 'bad_input', { field: 'query.cursor' });

  test('hand-built cursors on a key list, a workspace list and a member list are 400 bad_input at query.cursor', async () => {
    for (const cursor of hostileCursors) {
      expectBadCursor(
        await call(nodeA.partnerUrl, 'GET', `/api/v1/partner/crm/leads?cursor=${cursor}`, { headers: { 'x-api-key': leadKey } }),
      );
      expectBadCursor(await call(nodeA.partnerUrl, 'GET', `/api/v1/workspaces?cursor=${cursor}`, { token: alice.token }));
      expectBadCursor(await call(nodeA.partnerUrl, 'GET', `/api/v1/workspaces/${ws.id}/members?cursor=${cursor}`, { token: alice.token }));
      expectBadCursor(await call(nodeA.partnerUrl, 'GET', `/api/v1/workspaces/${ws.id}/api-keys?cursor=${cursor}`, { token: alice.token }));
    }
  });

  test('signed cursors with out-of-range timestamps are bad_input, not a 500', async () => {
    const secret = await storedCursorSecret(nodeA.db);
    for (const a of ['+275760-09-13T00:00:00Z', '0000-01-01', '1', '2026-01-01']) {
      expectBadCursor(
        await call(nodeA.partnerUrl, 'GET', `/api/v1/workspaces?cursor=${cursorSignedWith(secret, { a, i: newId() })}`, {
          token: alice.token,
        }),
      );
    }
  });

  test('an issued leads cursor pages on the other node', async () => {
    const first = await call(nodeA.partnerUrl, 'GET', '/api/v1/partner/crm/leads?limit=2', { headers: { 'x-api-key': leadKey } });
    expect(first.status).toBe(200);
    const second = await call(nodeB.partnerUrl, 'GET', `/api/v1/partner/crm/leads?limit=2&cursor=${first.body.next_cursor}`, {
      headers: { 'x-api-key': leadKey },
    });
    expect(second.status).toBe(200);
    expect(second.body.data).toHaveLength(1);
  });
});

describe('the secret', () => {
  test('one secret is stored, whatever the number of nodes', async () => {
    expect(await count(nodeA.db, "select count(*) as n from platform_secrets where name = 'cursor'")).toBe(1);
  });

  test('CURSOR_SECRET must be at least 32 characters', () => {
    expect(() => loadConfig({ CURSOR_SECRET: 'short' })).toThrow(ConfigError);
    expect(loadConfig({ CURSOR_SECRET: 's'.repeat(32) }).cursorSecret).toBe('s'.repeat(32));
    expect(loadConfig({}).cursorSecret).toBeUndefined();
  });

  test('a configured CURSOR_SECRET is what signs', async () => {
    const secret = `configured-${randomUUID()}`;
    const node = await startTestPlatform({ services: ['chat'], cursorSecret: secret });
    try {
      const res = await call(
        node.chatUrl,
        'GET',
        `/api/v1/rooms/${roomId}/messages?limit=1&before=${cursorSignedWith(secret, { s: 2 }, historyList(roomId, false))}`,
        { token: alice.token },
      );
      expectOk(res);
      expect(res.body.data.map((m: { text: string }) => m.text)).toEqual(['m0']);
    } finally {
      await node.stop();
    }
  });
});

describe('decoding', () => {
  test('keysets round-trip; values PostgreSQL would refuse do not decode', () => {
    const id = newId();
    expect(decodeCursor(encodeCursor({ a: '2026-11-23T10:00:00.000Z', i: id, s: 7 }))).toEqual({
      a: '2026-11-23T10:00:00.000Z',
      i: id,
      s: 7,
    });
    expect(decodeCursor(encodeCursor({ s: 1.5 }))).toBeNull();
    expect(decodeCursor(encodeCursor({ s: 2 ** 60 }))).toBeNull();
    expect(decodeCursor(encodeCursor({ a: '\ud800' }))).toBeNull();
    expect(decodeCursor(encodeCursor({ a: 'x\u0000' }))).toBeNull();
    expect(decodeCursor(encodeCursor({ a: '+275760-09-13T00:00:00.000Z' }))).toBeNull();
    expect(decodeCursor('A'.repeat(513))).toBeNull();
  });

  test('typed readers', () => {
    expect(cursorInstant('2026-11-23T10:00:00.000Z')).toBe('2026-11-23T10:00:00.000Z');
    for (const bad of ['+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00.000Z', '1', '2026-02-30T00:00:00.000Z', 5])
      expect(cursorInstant(bad)).toBeNull();
    expect(cursorUuid('0190A8C4-0000-7000-8000-00000000000A')).toBe('0190a8c4-0000-7000-8000-00000000000a');
    expect(cursorUuid('urn:uuid:0190a8c4-0000-7000-8000-00000000000a')).toBeNull();
    expect(cursorInt(3)).toBe(3);
    expect(cursorInt(-1)).toBeNull();
    expect(cursorInt(2 ** 53)).toBeNull();
  });
});
