// Benchmark: Bot API long polling. A bot waits in getUpdates (as grammY and Telegraf do) while a user sends
// messages into a private room with it; each message's latency runs from the moment the user's POST leaves to the
// moment the bot's getUpdates answer carrying it arrives (send, commit, outbox relay in the drain transaction,
// Redis wake-up, read, answer). Baseline: the user's send round trip alone (POST to 201), measured on the same
// requests. Goal (issue 12): p99 <= 50 ms. Then the bot's own sends: sendMessage round trips of a plain text and of
// the same text with HTML markup (parsed, its formatting stored), and from a bot's sendMessage leaving to the user's
// STOMP socket receiving the message event. Run with `node dist/test/bench/bots.js` (part of `make bench`).
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { call, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { ms, progress, runBenchmark, scratchInfra, table } from './report.js';
import { connectMember } from './stomp-member.js';

const MESSAGES = 500;
const BOT_SENDS = 200;
const WARMUP = 50;
const GOAL_P99_MS = 50;

const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });

/** POST with a JSON body over a kept-alive connection; resolves with the parsed answer. */
function post(base: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const url = new URL(path, base);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function setup(p: TestPlatform): Promise<{ userToken: string; botToken: string; roomId: string }> {
  const tenant = await p.tenant();
  const user = await tenant.account({ displayName: 'Bench user' });
  const made = await call(p.chatUrl, 'POST', '/api/v1/bots', {
    token: await p.adminToken(),
    body: { username: 'bench_bot', displayName: 'Bench bot', moduleCode: tenant.moduleCode, customerAccountId: tenant.customer },
  });
  if (made.status !== 200) throw new Error(`create bot: ${made.status} ${JSON.stringify(made.body)}`);
  const room = await call(p.chatUrl, 'POST', '/api/v1/rooms/private', {
    token: user.token,
    body: { accountId: made.body.data.bot.accountId },
  });
  if (room.status !== 200) throw new Error(`private room: ${room.status} ${JSON.stringify(room.body)}`);
  return { userToken: user.token, botToken: made.body.data.token, roomId: room.body.data.id };
}

/** Round trips of the bot's sendMessage with this body, one at a time, after a warm-up. */
async function botSends(base: string, botToken: string, body: Record<string, unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + BOT_SENDS; i++) {
    const t0 = performance.now();
    const res = await post(base, `/bot/${botToken}/sendMessage`, body);
    if (res.status !== 200) throw new Error(`bot send: ${res.status} ${JSON.stringify(res.body)}`);
    if (i >= WARMUP) times.push(performance.now() - t0);
  }
  return times;
}

async function main(): Promise<number> {
  await scratchInfra('bots-bench-');
  // The bot's sends are measured one after another, faster than the per-bot send limit allows.
  const p = await startTestPlatform({ services: ['chat', 'workers'], botSendRatePerSecond: 1_000_000 });
  try {
    const { userToken, botToken, roomId } = await setup(p);
    // The bot: one long poll after another, confirming by offset; every received text resolves its waiter.
    const received = new Map<string, (at: number) => void>();
    let offset = 0;
    let polling = true;
    let failures = 0;
    const poller = (async () => {
      while (polling) {
        const res = await post(p.chatUrl, `/bot/${botToken}/getUpdates`, { offset, timeout: 5 });
        const at = performance.now();
        if (res.status !== 200) {
          failures += 1;
          continue;
        }
        for (const update of res.body.result as Array<{ update_id: number; message?: { text?: string } }>) {
          offset = update.update_id + 1;
          const text = update.message?.text;
          if (text) received.get(text)?.(at);
        }
      }
    })();

    const sendRtt: number[] = [];
    const receipt: number[] = [];
    const afterCommit: number[] = [];
    progress(`${WARMUP} warm-up and ${MESSAGES} measured messages, one at a time`);
    for (let i = 0; i < WARMUP + MESSAGES; i++) {
      const text = `bench ${i}`;
      const got = new Promise<number>((resolve) => received.set(text, resolve));
      const t0 = performance.now();
      const sent = await post(p.chatUrl, `/api/v1/rooms/${roomId}/messages`, { text }, userToken);
      const t1 = performance.now();
      if (sent.status !== 201) throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
      const t2 = await got;
      received.delete(text);
      if (i >= WARMUP) {
        sendRtt.push(t1 - t0);
        receipt.push(t2 - t0);
        afterCommit.push(Math.max(0, t2 - t1));
      }
    }
    polling = false;
    // Ends the last long poll: one more message.
    await post(p.chatUrl, `/api/v1/rooms/${roomId}/messages`, { text: 'stop' }, userToken);
    await poller;
    progress(`${WARMUP} warm-up and ${BOT_SENDS} measured bot sends, plain then with HTML markup`);
    const plainSends = await botSends(p.chatUrl, botToken, { chat_id: roomId, text: 'a plain answer of the bench bot' });
    const htmlSends = await botSends(p.chatUrl, botToken, {
      chat_id: roomId,
      text: 'a <b>formatted</b> answer of the <a href="https://example.com/">bench bot</a>',
      parse_mode: 'HTML',
    });

    progress(`${WARMUP} warm-up and ${BOT_SENDS} measured bot sends received by the user over STOMP`);
    const delivered = new Map<string, (at: number) => void>();
    const socket = await connectMember(p.chatUrl, userToken, '/user/queue/events', (body, at) => {
      const text = /"text":"(bench answer \d+)"/.exec(body)?.[1];
      if (text) delivered.get(text)?.(at);
    });
    const userReceipt: number[] = [];
    for (let i = 0; i < WARMUP + BOT_SENDS; i++) {
      const text = `bench answer ${i}`;
      const got = new Promise<number>((resolve) => delivered.set(text, resolve));
      const t0 = performance.now();
      const res = await post(p.chatUrl, `/bot/${botToken}/sendMessage`, { chat_id: roomId, text });
      if (res.status !== 200) throw new Error(`bot send: ${res.status} ${JSON.stringify(res.body)}`);
      const t1 = await got;
      delivered.delete(text);
      if (i >= WARMUP) userReceipt.push(t1 - t0);
    }
    socket.close();

    const row = (name: string, values: number[]) => {
      const s = [...values].sort((a, b) => a - b);
      return [name, ms(percentile(s, 50)), ms(percentile(s, 95)), ms(percentile(s, 99)), ms(s[s.length - 1]!)];
    };
    process.stdout.write('\nBot API: getUpdates long polling, one message at a time (ms)\n');
    process.stdout.write(
      `${table(
        ['path', 'p50', 'p95', 'p99', 'max'],
        [
          row('baseline: user send round trip (POST -> 201)', sendRtt),
          row('user send -> bot receives it in getUpdates', receipt),
          row('  of which after the 201 (relay, wake, read)', afterCommit),
          row('bot sendMessage round trip, plain text', plainSends),
          row('bot sendMessage round trip, parse_mode HTML', htmlSends),
          row('bot sendMessage -> user receives it over STOMP', userReceipt),
        ],
      )}\n`,
    );
    const p99 = percentile(
      [...receipt].sort((a, b) => a - b),
      99,
    );
    process.stdout.write(
      `goal: p99 <= ${GOAL_P99_MS} ms from the user's message to the bot's receipt: ${p99 <= GOAL_P99_MS ? 'met' : 'NOT met'} (${ms(p99)} ms)\n`,
    );
    if (failures > 0) process.stdout.write(`getUpdates failures: ${failures}\n`);
    return failures === 0 ? 0 : 1;
  } finally {
    await p.stop();
    keepAlive.destroy();
  }
}

await runBenchmark(main);
