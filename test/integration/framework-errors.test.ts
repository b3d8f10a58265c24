// Errors raised by Fastify itself (parsing, validation, routing, limits) and by Node's HTTP parser (malformed
// request lines, oversized headers, timeouts) come out in each listener's envelope with the request id, and a
// refused request changes nothing.
import { connect } from 'node:net';
import { ConfigError, loadConfig } from '../../src/platform/config/index.js';
import { encodeCursor } from '../../src/platform/http/cursor.js';
import { newId } from '../../src/platform/ids.js';
import { count, expectError, expectOk } from '../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../support/platform.js';

let platform: TestPlatform;
let alice: TestAccount;
let roomId: string;
let base: string;

const roomsOf = (accountId: string) => count(platform.db, 'select count(*) as n from rooms where created_by = $1', [accountId]);
const messagesIn = (id: string) => count(platform.db, 'select count(*) as n from messages where room_id = $1', [id]);

beforeAll(async () => {
  platform = await startTestPlatform();
  base = platform.chatUrl;
  const tenant = await platform.tenant();
  alice = await tenant.account();
  const room = await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Framework' } });
  expectOk(room, 201);
  roomId = room.body.data.id;
});
afterAll(async () => {
  await platform.stop();
});

describe('request bodies', () => {
  test('malformed JSON is malformed_json and creates nothing', async () => {
    const res = await call(base, 'POST', '/api/v1/rooms', {
      token: alice.token,
      rawBody: '{"type":"GROUP","name":',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'malformed_json', 'body');
    expect(await roomsOf(alice.id)).toBe(1);
  });

  test('an empty JSON body is malformed_json', async () => {
    const res = await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, {
      token: alice.token,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'malformed_json');
    expect(await messagesIn(roomId)).toBe(0);
  });

  test('an unknown body field is validation_failed at body.<field>', async () => {
    const res = await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'X', colour: 'red' } });
    expectError(res, 400, 'validation_failed', 'body.colour');
    expect(res.body.error.details).toEqual([{ location: 'body.colour', message: 'is not a known field' }]);
    expect(await roomsOf(alice.id)).toBe(1);
  });

  test('an unknown field in a message body is refused', async () => {
    const res = await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: alice.token, body: { text: 'hi', pinned: true } });
    expectError(res, 400, 'validation_failed', 'body.pinned');
    expect(await messagesIn(roomId)).toBe(0);
  });

  test('wrong types are reported per field, without coercion', async () => {
    const res = await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 42, memberIds: 'x' } });
    expectError(res, 400, 'validation_failed', ['body.name', 'body.memberIds']);
    const num = await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: alice.token, body: { text: 123 } });
    expectError(num, 400, 'validation_failed', 'body.text');
    expect(await roomsOf(alice.id)).toBe(1);
    expect(await messagesIn(roomId)).toBe(0);
  });

  test('an enum outside its values and a missing required field', async () => {
    const res = await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'PRIVATE' } });
    expectError(res, 400, 'validation_failed', ['body.type', 'body.name']);
    expect(await roomsOf(alice.id)).toBe(1);
  });

  test('a JSON array where an object is expected', async () => {
    const res = await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: [{ type: 'GROUP', name: 'x' }] });
    expectError(res, 400, 'validation_failed', 'body');
  });

  test('text/plain is 415 unsupported_media_type', async () => {
    const res = await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, {
      token: alice.token,
      rawBody: JSON.stringify({ text: 'hi' }),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(res, 415, 'unsupported_media_type', 'header.content-type');
    expect(await messagesIn(roomId)).toBe(0);
  });

  test('a body over the limit (256 KiB by default) is 413 payload_too_large', async () => {
    expect(platform.config.bodyLimitBytes).toBe(256 * 1024);
    const res = await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, {
      token: alice.token,
      body: { text: 'x'.repeat(300 * 1024) },
    });
    expectError(res, 413, 'payload_too_large');
    expect(await messagesIn(roomId)).toBe(0);
  });
});

describe('path and query', () => {
  test('a path id that is not a uuid is validation_failed at path.id', async () => {
    const res = await call(base, 'GET', '/api/v1/rooms/not-a-uuid', { token: alice.token });
    expectError(res, 400, 'validation_failed', 'path.id');
  });

  test('a urn:uuid: path id is validation_failed, not a 500', async () => {
    const res = await call(base, 'GET', `/api/v1/rooms/urn:uuid:${roomId}`, { token: alice.token });
    expectError(res, 400, 'validation_failed', 'path.id');
  });

  test('a path roomId that is not a uuid is validation_failed at path.roomId', async () => {
    const res = await call(base, 'POST', '/api/v1/rooms/123/messages', { token: alice.token, body: { text: 'hi' } });
    expectError(res, 400, 'validation_failed', 'path.roomId');
  });

  test.each([['0'], ['101'], ['abc'], ['1.5']])('rooms limit=%s is validation_failed at query.limit', async (limit) => {
    const res = await call(base, 'GET', `/api/v1/rooms?limit=${limit}`, { token: alice.token });
    expectError(res, 400, 'validation_failed', 'query.limit');
  });

  test.each([['0'], ['101']])('messages limit=%s is validation_failed at query.limit', async (limit) => {
    const res = await call(base, 'GET', `/api/v1/rooms/${roomId}/messages?limit=${limit}`, { token: alice.token });
    expectError(res, 400, 'validation_failed', 'query.limit');
  });

  test('limits 1 and 100 are accepted', async () => {
    expectOk(await call(base, 'GET', '/api/v1/rooms?limit=1', { token: alice.token }));
    expectOk(await call(base, 'GET', `/api/v1/rooms/${roomId}/messages?limit=100`, { token: alice.token }));
  });

  test.each([
    ['garbage'],
    ['!!!'],
    [encodeCursor({ s: 3 })], // a message cursor is not a room cursor
    [encodeCursor({ a: 'not a date', i: newId() })],
    [Buffer.from('[1,2]').toString('base64url')],
  ])('rooms cursor %s is invalid_cursor at query.cursor', async (cursor) => {
    const res = await call(base, 'GET', `/api/v1/rooms?cursor=${encodeURIComponent(cursor)}`, { token: alice.token });
    expectError(res, 400, 'invalid_cursor', 'query.cursor');
  });

  test.each([['before'], ['after']])('messages %s cursor that is garbage is invalid_cursor', async (dir) => {
    for (const cursor of [
      'garbage',
      encodeCursor({ a: new Date().toISOString(), i: newId() }),
      encodeCursor({ s: -1 }),
      encodeCursor({ s: 1.5 }),
    ]) {
      const res = await call(base, 'GET', `/api/v1/rooms/${roomId}/messages?${dir}=${encodeURIComponent(cursor)}`, { token: alice.token });
      expectError(res, 400, 'invalid_cursor', `query.${dir}`);
    }
  });

  test('a cursor over 512 characters is validation_failed', async () => {
    const res = await call(base, 'GET', `/api/v1/rooms?cursor=${'a'.repeat(513)}`, { token: alice.token });
    expectError(res, 400, 'validation_failed', 'query.cursor');
  });

  test('before and after together are refused', async () => {
    const c = encodeCursor({ s: 1 });
    const res = await call(base, 'GET', `/api/v1/rooms/${roomId}/messages?before=${c}&after=${c}`, { token: alice.token });
    expectError(res, 400, 'validation_failed', 'query.after');
  });

  test('an include value outside the enum', async () => {
    const res = await call(base, 'GET', '/api/v1/rooms?include=everything', { token: alice.token });
    expectError(res, 400, 'validation_failed', 'query.include');
  });
});

describe('routing and request ids', () => {
  test('an unknown route is 404 route_not_found in the envelope', async () => {
    const res = await call(base, 'GET', '/api/v1/nothing-here?x=1', { token: alice.token });
    expectError(res, 404, 'route_not_found');
    expect(res.body.error.message).toContain('/api/v1/nothing-here');
    expect(res.body.error.message).not.toContain('x=1');
  });

  test('an unknown method on a known path is refused in the envelope and changes nothing', async () => {
    const res = await call(base, 'PUT', `/api/v1/rooms/${roomId}`, { token: alice.token, body: { name: 'Replaced' } });
    // The path is a resource of the spec without PUT: 405 method_not_allowed, with Allow listing its methods.
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('GET');
    expect(await count(platform.db, "select count(*) as n from rooms where id = $1 and name <> 'Replaced'", [roomId])).toBe(1);
  });

  test('a well-formed incoming X-Request-Id is echoed in the header and meta, on success and error', async () => {
    const ok = await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: alice.token, headers: { 'x-request-id': 'trace-abc.123:1' } });
    expectOk(ok);
    expect(ok.body.meta.requestId).toBe('trace-abc.123:1');
    const err = await call(base, 'GET', '/api/v1/rooms/nope', { token: alice.token, headers: { 'x-request-id': 'trace-err-1' } });
    expectError(err, 400, 'validation_failed');
    expect(err.body.meta.requestId).toBe('trace-err-1');
    const notFound = await call(base, 'GET', '/nope', { headers: { 'x-request-id': 'trace-404' } });
    expectError(notFound, 404, 'route_not_found');
    expect(notFound.body.meta.requestId).toBe('trace-404');
  });

  test('an ill-formed incoming X-Request-Id is replaced by a generated one', async () => {
    const res = await call(base, 'GET', `/api/v1/rooms/${roomId}`, {
      token: alice.token,
      headers: { 'x-request-id': 'has space<script>' },
    });
    expectOk(res);
    expect(res.body.meta.requestId).not.toBe('has space<script>');
    expect(res.body.meta.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('each request without an id gets a distinct one', async () => {
    const a = await call(base, 'GET', '/api/v1/rooms', { token: alice.token });
    const b = await call(base, 'GET', '/api/v1/rooms', { token: alice.token });
    expect(a.body.meta.requestId).not.toBe(b.body.meta.requestId);
    expect(a.headers.get('x-request-id')).toBe(a.body.meta.requestId);
  });
});

/** A response read off a raw socket. */
interface RawResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** A step waits for something before the next write: `continued` settles when the server sent 100 Continue. */
type Step = string | { waitFor: (conn: { continued: Promise<void> }) => Promise<unknown> };

/**
 * Writes the steps to a fresh connection and reads until the server closes it (every answer tested here closes its
 * connection), then parses the final responses. Nothing here is timed: the test's own timeout is the only bound.
 */
function raw(base: string, steps: Step[]): Promise<RawResponse[]> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let sawContinue!: () => void;
    const continued = new Promise<void>((r) => (sawContinue = r));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (Buffer.concat(chunks).includes('HTTP/1.1 100 Continue\r\n\r\n')) sawContinue();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      try {
        resolve(parseResponses(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
    socket.on('connect', async () => {
      for (const step of steps) {
        if (typeof step === 'string') socket.write(step);
        else await step.waitFor({ continued });
      }
    });
  });
}

function parseResponses(buffer: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return responses;
    const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers = new Headers(lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
    const length = Number(headers.get('content-length') ?? 0);
    const text = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    buffer = buffer.subarray(end + 4 + length);
    const status = Number(statusLine!.split(' ')[1]);
    // Interim answers (100 Continue) are not responses.
    if (status >= 200) responses.push({ status, headers, body: text ? JSON.parse(text) : undefined });
  }
}

type Listener = 'chat' | 'partner' | 'workspace';

const baseOf = (p: TestPlatform, listener: Listener) => ({ chat: p.chatUrl, partner: p.partnerUrl, workspace: p.workspaceUrl })[listener];

/** A path with one parameter on each listener, for malformed and oversized parameters. */
const paramPath: Record<Listener, string> = { chat: '/api/v1/rooms/', partner: '/api/v1/workspaces/', workspace: '/api/v1/leads/' };

/** The listener's own envelope, with the request id in the body (where the convention has it) and the header. */
function expectEnvelope(
  listener: Listener,
  res: { status: number; body: any; headers: Headers },
  status: number,
  codes: Record<Listener, string>,
): string {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  if (listener === 'chat') {
    expect(Object.keys(res.body).sort()).toEqual(['error', 'meta']);
    expect(res.body.error.code).toBe(codes.chat);
    expect(res.body.meta.requestId).toBe(id);
  } else if (listener === 'partner') {
    expect(Object.keys(res.body).sort()).toEqual(['error', 'request_id']);
    expect(res.body.error.code).toBe(codes.partner);
    expect(typeof res.body.error.details).toBe('object');
    expect(res.body.request_id).toBe(id);
  } else {
    expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
    expect(res.body.error).toBe(codes.workspace);
  }
  return id!;
}

const listeners: Listener[] = ['chat', 'partner', 'workspace'];

describe('errors of the router and of the HTTP parser, on every listener', () => {
  test.each(listeners)(
    "%s: a path that is not valid percent-encoding is 400 in the envelope, with the caller's request id",
    async (listener) => {
      const res = await call(baseOf(platform, listener), 'GET', `${paramPath[listener]}%FF`, {
        headers: { 'x-request-id': `bad-url-${listener}` },
      });
      const id = expectEnvelope(listener, res, 400, { chat: 'malformed_request', partner: 'bad_input', workspace: 'invalid_request' });
      expect(id).toBe(`bad-url-${listener}`);
    },
  );

  test.each(listeners)('%s: a path segment over 500 characters is 414 uri_too_long in the envelope', async (listener) => {
    const res = await call(baseOf(platform, listener), 'GET', `${paramPath[listener]}${'a'.repeat(501)}`);
    expectEnvelope(listener, res, 414, { chat: 'uri_too_long', partner: 'uri_too_long', workspace: 'uri_too_long' });
  });

  test.each(listeners)('%s: a malformed request line is 400 in the envelope and the connection closes', async (listener) => {
    const [res] = await raw(baseOf(platform, listener), ['NOT HTTP AT ALL\r\n\r\n']);
    expectEnvelope(listener, res!, 400, { chat: 'malformed_request', partner: 'bad_input', workspace: 'invalid_request' });
    expect(res!.headers.get('connection')).toBe('close');
  });

  test.each(listeners)('%s: headers over the size limit are 431 headers_too_large in the envelope', async (listener) => {
    const [res] = await raw(baseOf(platform, listener), [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expectEnvelope(listener, res!, 431, { chat: 'headers_too_large', partner: 'headers_too_large', workspace: 'headers_too_large' });
    expect(res!.headers.get('connection')).toBe('close');
  });

  test('a malformed chat request creates nothing and the listener keeps serving', async () => {
    const [res] = await raw(base, [`POST /api/v1/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n{}`]);
    expectEnvelope('chat', res!, 400, { chat: 'malformed_request', partner: 'bad_input', workspace: 'invalid_request' });
    expect(await roomsOf(alice.id)).toBe(1);
    expectOk(await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: alice.token }));
  });
});

describe('timeouts', () => {
  let slow: TestPlatform;
  let owner: TestAccount;

  beforeAll(async () => {
    // Small timeouts so that the test waits a fraction of a second, not the production minute.
    slow = await startTestPlatform({ requestTimeoutMs: 600, headersTimeoutMs: 300, keepAliveTimeoutMs: 300 });
    owner = await (await slow.tenant()).account();
  });
  afterAll(async () => {
    await slow.stop();
  });

  test('a client that sends its body slowly is cut off with 408 in the envelope, with its request id; nothing is created', async () => {
    const body = JSON.stringify({ type: 'GROUP', name: 'Never finished' });
    const [res] = await raw(slow.chatUrl, [
      `POST /api/v1/rooms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nX-Request-Id: slow-body-1\r\n\r\n${body.slice(0, 5)}`,
      // ...and never the rest.
    ]);
    const id = expectEnvelope('chat', res!, 408, { chat: 'request_timeout', partner: 'request_timeout', workspace: 'request_timeout' });
    expect(id).toBe('slow-body-1');
    expect(res!.headers.get('connection')).toBe('close');
    expect(await count(slow.db, 'select count(*) as n from rooms where created_by = $1', [owner.id])).toBe(0);
  });

  test.each(listeners)('%s: headers that never end are cut off with 408 in the envelope', async (listener) => {
    const [res] = await raw(baseOf(slow, listener), ['GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n']);
    expectEnvelope(listener, res!, 408, { chat: 'request_timeout', partner: 'request_timeout', workspace: 'request_timeout' });
    expect(res!.headers.get('connection')).toBe('close');
  });

  test('the settings default to a minute for a request, ten seconds for headers, 65 s of keep-alive', () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 60_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 65_000 });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' })).toMatchObject({ requestTimeoutMs: 5_000, headersTimeoutMs: 5_000 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toThrow(ConfigError);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '10' })).toThrow(ConfigError);
  });
});

describe('while a listener closes', () => {
  test('the request in flight completes with Connection: close; one pipelined behind it is left unread for the client to retry', async () => {
    const closing = await startTestPlatform({ services: ['chat'] });
    try {
      const owner = await (await closing.tenant()).account();
      const body = JSON.stringify({ type: 'GROUP', name: 'In flight' });
      const head =
        `POST /api/v1/rooms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`;
      let closed: Promise<unknown> | undefined;
      const responses = await raw(closing.chatUrl, [
        head,
        {
          // 100 Continue: the server has the first request, which keeps the listener from closing until it is done.
          waitFor: async ({ continued }) => {
            await continued;
            closed = closing.chat!.close();
            while (closing.chat!.server.listening) await new Promise((r) => setImmediate(r));
          },
        },
        `${body}GET /api/v1/rooms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.token}\r\n\r\n`,
      ]);
      // The drain (docs/operations.md): the response in flight ends its connection, so nothing behind it is taken.
      expect(responses.map((r) => r.status)).toEqual([201]);
      expect(responses[0]!.headers.get('connection')).toBe('close');
      expect(await count(closing.db, 'select count(*) as n from rooms where created_by = $1', [owner.id])).toBe(1);
      await closed;
    } finally {
      await closing.stop();
    }
  });
});
