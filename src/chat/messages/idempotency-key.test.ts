// The Idempotency-Key header on sendMessage: the same key space as clientMessageId, a race of identical sends, and
// a retry after the client lost the first response (its connection closed before the answer came).
import { connect } from 'node:net';
import { count, eventually, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let base: string;
let tenant: TestTenant;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  base = platform.chatUrl;
  tenant = await platform.tenant();
});
afterAll(async () => {
  await platform.stop();
});

async function newRoom(owner: TestAccount): Promise<string> {
  const res = await call(base, 'POST', '/api/v1/rooms', { token: owner.token, body: { type: 'GROUP', name: 'Keys' } });
  expectOk(res, 201);
  return res.body.data.id;
}
const send = (who: TestAccount, roomId: string, body: Record<string, unknown>, key?: string) =>
  call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, {
    token: who.token,
    body,
    ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
  });
const messagesIn = (roomId: string) => count(platform.db, 'select count(*) as n from messages where room_id = $1', [roomId]);
const eventsIn = (roomId: string) =>
  count(platform.db, "select count(*) as n from outbox where topic = 'message.created' and payload->>'roomId' = $1", [roomId]);

/** Writes one request on a raw socket and closes it at once: the server handles it, the client never reads the answer. */
function sendAndHangUp(url: string, path: string, token: string, key: string, body: unknown): Promise<void> {
  const { hostname, port } = new URL(url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end(
        `POST ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nauthorization: Bearer ${token}\r\nidempotency-key: ${key}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
        () => {
          socket.destroy();
          resolve();
        },
      );
    });
    socket.on('error', reject);
  });
}

describe('Idempotency-Key on sendMessage', () => {
  test('a repeat with the same header returns the first message (201) and stores nothing new', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const first = await send(alice, roomId, { text: 'once' }, 'ik-1');
    expectOk(first, 201);
    expect(first.body.data.clientMessageId).toBe('ik-1');
    const repeat = await send(alice, roomId, { text: 'once (retry)' }, 'ik-1');
    expectOk(repeat, 201);
    expect(repeat.body.data).toEqual(first.body.data);
    expect(await messagesIn(roomId)).toBe(1);
    expect(await eventsIn(roomId)).toBe(1);
  });

  test('header and clientMessageId are one key space', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const byBody = await send(alice, roomId, { text: 'x', clientMessageId: 'shared-1' });
    const byHeader = await send(alice, roomId, { text: 'x' }, 'shared-1');
    const byBoth = await send(alice, roomId, { text: 'x', clientMessageId: 'shared-1' }, 'shared-1');
    for (const r of [byBody, byHeader, byBoth]) expectOk(r, 201);
    expect(new Set([byBody, byHeader, byBoth].map((r) => r.body.data.id)).size).toBe(1);
    expect(await messagesIn(roomId)).toBe(1);
  });

  test('given both, clientMessageId is the key', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const first = await send(alice, roomId, { text: 'x', clientMessageId: 'body-1' }, 'header-1');
    expectOk(first, 201);
    expect(first.body.data.clientMessageId).toBe('body-1');
    // The header was not used as a key: a send with it alone is a new message; one with the body key is a repeat.
    const byHeader = await send(alice, roomId, { text: 'x' }, 'header-1');
    const byBody = await send(alice, roomId, { text: 'x' }, 'body-1');
    expect(byHeader.body.data.id).not.toBe(first.body.data.id);
    expect(byBody.body.data.id).toBe(first.body.data.id);
    expect(await messagesIn(roomId)).toBe(2);
  });

  test('a header that breaks the pattern is refused and changes nothing', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    for (const bad of ['has space', 'x'.repeat(65), 'semi;colon']) {
      expectError(await send(alice, roomId, { text: 'x' }, bad), 400, 'validation_failed', 'header.idempotency-key');
    }
    expect(await messagesIn(roomId)).toBe(0);
    expect(Number((await platform.db.query('select last_seq from rooms where id = $1', [roomId])).rows[0].last_seq)).toBe(0);
  });

  test('50 concurrent identical sends with one key store one message and one event', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const results = await Promise.all(Array.from({ length: 50 }, () => send(alice, roomId, { text: 'race' }, 'ik-race')));
    for (const r of results) expectOk(r, 201);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await messagesIn(roomId)).toBe(1);
    expect(await eventsIn(roomId)).toBe(1);
  });

  test('a retry after a lost response returns the message the lost request stored', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    await sendAndHangUp(base, `/api/v1/rooms/${roomId}/messages`, alice.token, 'ik-lost', { text: 'did it arrive?' });
    // The server handles the request although nobody reads the answer.
    const stored = await eventually(
      async () => (await platform.db.query('select id from messages where room_id = $1', [roomId])).rows[0]?.id as string | undefined,
    );
    const retry = await send(alice, roomId, { text: 'did it arrive?' }, 'ik-lost');
    expectOk(retry, 201);
    expect(retry.body.data.id).toBe(stored);
    expect(await messagesIn(roomId)).toBe(1);
    expect(await eventsIn(roomId)).toBe(1);
  });

  test('a key is scoped to sender and room, and a new key sends a new message', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const a = await send(alice, roomId, { text: 'a' }, 'k-1');
    const b = await send(alice, roomId, { text: 'b' }, 'k-2');
    const other = await newRoom(alice);
    const c = await send(alice, other, { text: 'c' }, 'k-1');
    expect(new Set([a, b, c].map((r) => r.body.data.id)).size).toBe(3);
    expect(await messagesIn(roomId)).toBe(2);
  });
});
