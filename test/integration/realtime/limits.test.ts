// Frames a well-behaved client never sends, over a plain WebSocket: each is refused with an ERROR frame and the
// close, and the node goes on serving everyone else. Limits are lowered on this node to keep the test small.
import { randomUUID } from 'node:crypto';
import { eventually } from '../../helpers/expect.js';
import { call, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { createRoom, Probe, RawStomp, send, startNode, wsUrl } from './support.js';

const MAX_FRAME = 4096;
let p: TestPlatform;
let alice: TestAccount;
let bob: TestAccount;
let url: string;
beforeAll(async () => {
  p = await startNode({
    realtimeMaxFrameBytes: MAX_FRAME,
    realtimeMaxSubscriptions: 4,
    realtimeMaxFramesPerSecond: 20,
    realtimeHeartbeatMs: 200,
    realtimeConnectTimeoutMs: 500,
  });
  const tenant = await p.tenant();
  [alice, bob] = [await tenant.account(), await tenant.account()];
  url = wsUrl(p);
});
afterAll(async () => {
  await p?.stop();
});

/** The node still serves: a new client gets a live event, and REST answers. */
async function stillServing(): Promise<void> {
  const probe = await Probe.open(url, alice.token);
  try {
    await probe.subscribeEvents();
    const roomId = await createRoom(p, bob, [alice], `alive ${randomUUID().slice(0, 6)}`);
    await probe.waitFor((e) => e.topic === 'room.created' && e.payload.roomId === roomId);
    expect((await call(p.chatUrl, 'GET', '/healthz')).status).toBe(200);
  } finally {
    await probe.close();
  }
}

test('an oversize frame is refused with ERROR frame_too_large, sent whole or announced by content-length', async () => {
  const whole = await RawStomp.connected(url, alice.token);
  whole.send(`SUBSCRIBE\nid:1\ndestination:/user/queue/events\nx:${'a'.repeat(MAX_FRAME)}\n\n\0`);
  expect((await whole.error()).headers).toMatchObject({ code: 'frame_too_large' });
  expect(whole.closeCode).toBe(1009);

  const announced = await RawStomp.connected(url, alice.token);
  announced.send(`SEND\ndestination:/x\ncontent-length:${MAX_FRAME * 2}\n\n`);
  expect((await announced.error()).headers).toMatchObject({ code: 'frame_too_large' });

  // Far beyond the limit the WebSocket layer itself cuts the connection (1009) before reading it.
  const huge = await RawStomp.connected(url, alice.token);
  huge.send(Buffer.alloc(MAX_FRAME * 5, 0x61));
  await expect(huge.error(2000)).rejects.toThrow();
  expect(huge.closeCode).toBe(1009);

  // Before CONNECT too.
  const early = await RawStomp.open(url);
  early.send(`CONNECT\naccept-version:1.2\nx:${'b'.repeat(MAX_FRAME)}\n\n\0`);
  expect((await early.error()).headers).toMatchObject({ code: 'frame_too_large' });
  await stillServing();
});

test('a SUBSCRIBE flood is refused: beyond the subscriptions of one connection, and beyond the frames per second', async () => {
  const many = await RawStomp.connected(url, alice.token);
  many.send(Array.from({ length: 10 }, (_, i) => `SUBSCRIBE\nid:s${i}\ndestination:/user/queue/events\n\n\0`).join(''));
  expect((await many.error()).headers).toMatchObject({ code: 'too_many_subscriptions' });

  const fast = await RawStomp.connected(url, alice.token);
  for (let i = 0; i < 25; i++) fast.send(`SUBSCRIBE\nid:f${i}\ndestination:/user/queue/events\n\n\0UNSUBSCRIBE\nid:f${i}\n\n\0`);
  expect((await fast.error()).headers).toMatchObject({ code: 'rate_limited' });

  // Heart-beats alone count too.
  const beats = await RawStomp.connected(url, alice.token);
  for (let i = 0; i < 25; i++) beats.send('\n');
  expect((await beats.error()).headers).toMatchObject({ code: 'rate_limited' });
  await stillServing();
});

test('unknown destinations, SEND, ACK, transactions, duplicate ids, bad headers and frames before CONNECT: ERROR and close', async () => {
  const cases: Array<[string, string]> = [
    ['SUBSCRIBE\nid:1\ndestination:/topic/everything\n\n\0', 'unknown_destination'],
    ['SUBSCRIBE\nid:1\ndestination:/user/queue/events\nack:client\n\n\0', 'ack_not_supported'],
    ['SUBSCRIBE\ndestination:/user/queue/events\n\n\0', 'missing_header'],
    ['SUBSCRIBE\nid:1\ndestination:/user/queue/events\nresume-after:abc\n\n\0', 'invalid_header'],
    ['SUBSCRIBE\nid:1\ndestination:/user/queue/session\nresume-after:1\n\n\0', 'invalid_header'],
    [
      'SUBSCRIBE\nid:1\ndestination:/user/queue/events\n\n\0SUBSCRIBE\nid:1\ndestination:/user/queue/session\n\n\0',
      'duplicate_subscription',
    ],
    ['SEND\ndestination:/user/queue/events\n\nhello\0', 'send_not_supported'],
    ['ACK\nid:1\n\n\0', 'ack_not_supported'],
    ['BEGIN\ntransaction:t\n\n\0', 'transactions_not_supported'],
    [`CONNECT\naccept-version:1.2\nAuthorization:Bearer ${'x'}\n\n\0`, 'already_connected'],
    ['HELLO\n\n\0', 'unknown_command'],
    ['SUBSCRIBE\nid:1\\q\ndestination:/user/queue/events\n\n\0', 'malformed_frame'],
  ];
  for (const [frame, code] of cases) {
    const raw = await RawStomp.connected(url, alice.token);
    raw.send(frame);
    const error = await raw.error();
    expect({ frame: frame.split('\n')[0], code: error.headers.code }).toEqual({ frame: frame.split('\n')[0], code });
  }
  const early = await RawStomp.open(url);
  early.send('SUBSCRIBE\nid:1\ndestination:/user/queue/events\n\n\0');
  expect((await early.error()).headers).toMatchObject({ code: 'not_connected' });
  // The ERROR of a refused frame that asked for a receipt names it.
  const withReceipt = await RawStomp.connected(url, alice.token);
  withReceipt.send('SEND\ndestination:/x\nreceipt:77\n\n\0');
  expect((await withReceipt.error()).headers).toMatchObject({ code: 'send_not_supported', 'receipt-id': '77' });
  await stillServing();
});

test('receipts, UNSUBSCRIBE and DISCONNECT work as STOMP says', async () => {
  const raw = await RawStomp.connected(url, alice.token);
  raw.send('SUBSCRIBE\nid:e\ndestination:/user/queue/events\nreceipt:r1\n\n\0');
  expect(await raw.next()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'r1' } });
  raw.send('UNSUBSCRIBE\nid:e\nreceipt:r2\n\n\0');
  expect(await raw.next()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'r2' } });
  // Unsubscribed: an event for alice does not come.
  const roomId = await createRoom(p, bob, [alice]);
  await send(p, bob, roomId, 'not for the unsubscribed');
  raw.send('DISCONNECT\nreceipt:r3\n\n\0');
  expect(await raw.next()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'r3' } });
  await new Promise((r) => setTimeout(r, 100));
  expect(raw.closeCode).toBe(1000);
  expect(raw.frames.filter((f) => f.command === 'MESSAGE')).toEqual([]);
});

test('heart-beats: the server sends them at the negotiated interval and closes a client that goes silent', async () => {
  // The client wants one every 200 ms (cy) and sends none (cx 0): the server sends, and asks nothing.
  const listener = await RawStomp.connected(url, alice.token, '0,200');
  await new Promise((r) => setTimeout(r, 900));
  expect(listener.heartbeats).toBeGreaterThanOrEqual(2);
  expect(listener.closeCode).toBeUndefined();
  listener.close();

  // The client promises one every 200 ms (cx) and stays silent: closed after twice the interval.
  const silent = await RawStomp.connected(url, alice.token, '200,0');
  expect((await silent.error(3000)).headers).toMatchObject({ code: 'heartbeat_timeout' });

  // Nothing but the upgrade: closed when the CONNECT does not come in time.
  const mute = await RawStomp.open(url);
  expect((await mute.error(3000)).headers).toMatchObject({ code: 'connect_timeout' });
});

test('only /ws upgrades; every session refused or closed above has left the node', async () => {
  const other = url.replace(/\/ws$/, '/api/v1/ws');
  await expect(RawStomp.open(other)).rejects.toThrow(/404/);
  await eventually(async () => p.realtime!.sessions === 0);
});
