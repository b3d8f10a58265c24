// Errors Node's HTTP parser raises before routing (431 headers too large, 408 request timeout, 400 not HTTP) came
// back in the chat envelope on Bot API paths. On a /bot path they are {ok: false, error_code, description}; chat
// paths on the same port keep the chat envelope.
import { connect } from 'node:net';
import { createBot, expectBotError, type TestBot } from '../../helpers/bots.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';

let platform: TestPlatform;
let bot: TestBot;

beforeAll(async () => {
  // Small timeouts, so that a timed-out request is cut off in a fraction of a second.
  platform = await startTestPlatform({ services: ['chat'], requestTimeoutMs: 600, headersTimeoutMs: 300, keepAliveTimeoutMs: 300 });
  bot = await createBot(platform, await platform.tenant());
});
afterAll(async () => {
  await platform?.stop();
});

/** Writes the bytes, reads until the server closes, and parses the one response. */
function raw(bytes: string): Promise<{ status: number; body: any; headers: Headers }> {
  const { hostname, port } = new URL(platform.chatUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no response: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = new Headers(lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(text.slice(end + 4)) });
    });
    socket.on('connect', () => socket.write(bytes));
  });
}

const bigHeader = `X-Big: ${'a'.repeat(20_000)}\r\n`;

test('431 on a Telegram-shaped and on a /bot/ path is in the Bot API envelope', async () => {
  for (const path of [`/bot${bot.token}/getMe`, `/bot/${bot.token}/getMe`]) {
    const res = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\n${bigHeader}\r\n`);
    expectBotError(res, 431, 'Request Header Fields Too Large');
  }
});

test('431 on a chat path keeps the chat envelope', async () => {
  const res = await raw(`GET /api/v1/rooms HTTP/1.1\r\nHost: x\r\n${bigHeader}\r\n`);
  expect(res.status).toBe(431);
  expect(res.body.error.code).toBe('headers_too_large');
});

test('408 for a Bot API body that never arrives is in the Bot API envelope', async () => {
  const body = JSON.stringify({ chat_id: 'x', text: 'never finished' });
  const res = await raw(
    `POST /bot${bot.token}/sendMessage HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  expectBotError(res, 408, 'Request Timeout');
});

test('408 for Bot API headers that stall after the request line is in the Bot API envelope', async () => {
  for (const path of [`/bot${bot.token}/getMe`, `/bot/${bot.token}/getMe`]) {
    const res = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Slow: `);
    expectBotError(res, 408, 'Request Timeout');
  }
});

test('408 for chat headers that stall keeps the chat envelope', async () => {
  const stalled = await raw(`GET /api/v1/rooms HTTP/1.1\r\nHost: x\r\nX-Slow: `);
  expect(stalled.status).toBe(408);
  expect(stalled.body.error.code).toBe('request_timeout');
});
