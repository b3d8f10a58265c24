// Gap-free resume: a client that was away gets, with resume-after, every event it missed, in order, once, then
// the live ones, on whichever node it reconnects to; the SDK helper does this by itself, also across a node's
// restart notice. Beyond the retention window the answer is resync_required (STOMP) and 410 (REST).
import WebSocket from 'ws';
import { connectRealtime, type RealtimeEvent } from '../../../sdk/chat/src/index.js';
import { randomUUID } from 'node:crypto';
import { pruneEventLog } from '../../../src/chat/realtime/log-pruning.js';
import { lastSeqOf, readUserEvents, recordUserEvents } from '../../../src/chat/realtime/log.js';
import { eventually, expectError } from '../../helpers/expect.js';
import { createSqlPool, lockSession, unlockSession } from '../../../src/platform/db/sql.js';
import { RELAY_LOCK } from '../../../src/platform/outbox.js';
import { call, isolatedInfra, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { createRoom, isMessageIn, Probe, restEvents, send, startNode, wsUrl } from './support.js';
import { alternate } from '../../helpers/data.js';

let a: TestPlatform;
let b: TestPlatform;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
/**
 * A node on this file's own database and Redis: on the shared ones another test process's relay, busy with its own
 * work, may be the one that drains and announces these events.
 */
const node = (overrides: Parameters<typeof startNode>[0] = {}) =>
  startNode({ databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, ...overrides });
beforeAll(async () => {
  infra = await isolatedInfra();
  a = await node();
  b = await node();
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await infra?.drop();
});

const seqs = (events: Array<{ seq: number }>) => events.map((e) => e.seq);
/** Whether the connection is up after exactly n connects. */
const connectedAfter = (conn: { connected: boolean }, connects: number, n: number) => connects === n && conn.connected;

/** The account's whole event log once it holds n messages of the room, undefined until then (for eventually()). */
async function logWithMessages(p: TestPlatform, who: TestAccount, roomId: string, n: number) {
  const events = await restEvents(p, who, 0);
  return events.filter(isMessageIn(roomId)).length === n ? events : undefined;
}
const consecutive = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

test('disconnected on node A while events happen, resumed on node B: exactly the missed events in order, then live ones', async () => {
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const roomId = await createRoom(a, bob, [alice]);
  const first = await Probe.open(wsUrl(a), alice.token);
  await first.subscribeEvents();
  const before = [await send(a, bob, roomId, 'one'), await send(b, bob, roomId, 'two')];
  await first.waitFor((e) => e.payload.messageId === before[1]);
  const last = first.events[first.events.length - 1]!.seq;
  await first.close();

  const missed: string[] = [];
  for (let i = 0; i < 5; i++) missed.push(await send(alternate(i, b, a), bob, roomId, `missed ${i}`));
  // Every one of them is in alice's log before she comes back.
  await eventually(async () => (await restEvents(b, alice, last)).filter(isMessageIn(roomId)).length === missed.length);

  const second = await Probe.open(wsUrl(b), alice.token);
  try {
    await second.subscribeEvents(last);
    const live = [await send(a, bob, roomId, 'live 1'), await send(a, bob, roomId, 'live 2')];
    await second.waitFor((e) => e.payload.messageId === live[1]);

    expect(seqs(second.events)).toEqual(consecutive(last + 1, second.events.length));
    expect(second.events.filter(isMessageIn(roomId)).map((e) => e.payload.messageId)).toEqual([...missed, ...live]);
    // What the STOMP stream gave is what the log holds.
    expect((await restEvents(a, alice, last)).slice(0, second.events.length)).toEqual(second.events);
  } finally {
    await second.close();
  }
});

test('the SDK helper resumes by itself: a restart notice from one node, a reconnect to the other, no gap and no repeat', async () => {
  const c = await node(); // the node that will restart
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const roomId = await createRoom(a, bob, [alice]);
  const received: RealtimeEvent[] = [];
  const notices: string[] = [];
  const urls = [wsUrl(c), wsUrl(b)];
  let connects = 0;
  const conn = connectRealtime({
    url: c.chatUrl,
    token: alice.token,
    // The first connection goes to node C, every later one to node B.
    webSocketFactory: () => new WebSocket(urls[Math.min(connects, 1)]!),
    reconnectDelayMs: 100,
    onEvent: (e) => received.push(e),
    onNotice: (n) => notices.push(n.type),
    onConnect: () => connects++,
  });
  try {
    await eventually(async () => conn.connected);
    await new Promise((r) => setTimeout(r, 100)); // the subscriptions sent right after CONNECTED reach the server
    const early = await send(a, bob, roomId, 'before the restart');
    await eventually(async () => received.some((e) => e.payload.messageId === early));

    await c.stop();
    await eventually(async () => notices.length > 0);
    expect(notices).toEqual(['restarting']);
    const during: string[] = [];
    for (let i = 0; i < 3; i++) during.push(await send(a, bob, roomId, `while away ${i}`));
    await eventually(async () => connectedAfter(conn, connects, 2));
    const after = await send(b, bob, roomId, 'after the reconnect');
    await eventually(async () => received.some((e) => e.payload.messageId === after));

    expect(seqs(received)).toEqual(consecutive(received[0]!.seq, received.length));
    expect(received.filter(isMessageIn(roomId)).map((e) => e.payload.messageId)).toEqual([early, ...during, after]);
    expect(conn.lastSeq).toBe(received[received.length - 1]!.seq);
  } finally {
    await conn.close();
    await c.stop().catch(() => undefined);
  }
});

test('events pruned past the retention window: resume-after answers resync_required, REST 410; later positions still resume', async () => {
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const roomId = await createRoom(a, bob, [alice]);
  for (let i = 0; i < 4; i++) await send(a, bob, roomId, `m${i}`);
  const log = await eventually(() => logWithMessages(a, alice, roomId, 4));
  // As the pruning job does past the window, for this account only (other tests share the database).
  await a.db.query('delete from user_events where account_id = $1 and seq <= 2', [alice.id]);

  expect(
    await Probe.open(wsUrl(b), alice.token).then(async (p) => {
      await p.subscribeEvents(1).catch(() => undefined);
      await p.waitForClose();
      return p.errors.map((e) => e.code);
    }),
  ).toEqual(['resync_required']);
  expectError(await call(b.chatUrl, 'GET', '/api/v1/me/events?after=1', { token: alice.token }), 410, 'events_expired');

  // From the oldest kept position on, resume works; an after beyond the newest event is refused too.
  const kept = await Probe.open(wsUrl(b), alice.token);
  await kept.subscribeEvents(2);
  await kept.waitFor((e) => e.seq === log[log.length - 1]!.seq);
  expect(kept.events).toEqual(log.slice(2));
  await kept.close();
  const ahead = await Probe.open(wsUrl(a), alice.token);
  await ahead.subscribeEvents(log[log.length - 1]!.seq + 10).catch(() => undefined);
  await ahead.waitForClose();
  expect(ahead.errors.map((e) => e.code)).toEqual(['resync_required']);
});

/** Records an event in alice's log as the relay does, but announces nothing: an announcement Redis lost. */
async function recordSilently(p: TestPlatform, accountId: string, marker: string): Promise<void> {
  const sql = createSqlPool(p.databaseUrl, 1);
  try {
    const client = await sql.connect();
    try {
      // Under the relays' lock, as a relay records: a relay numbering the same account at the same time would take
      // the same seq.
      await lockSession(client, RELAY_LOCK, { begin: true });
      const { rows } = await client.query(
        `insert into outbox (topic, payload, published_at) values ('test.silent', $1, now()) returning id, topic, payload, created_at`,
        [JSON.stringify({ marker, audience: { kind: 'accounts', accountIds: [accountId] } })],
      );
      await recordUserEvents(client, rows);
      await client.query('commit');
      await unlockSession(client, RELAY_LOCK);
    } finally {
      client.release();
    }
  } finally {
    await sql.end();
  }
}

test('a lost announcement: the next one shows the gap and the log fills it; with none, the periodic check does', async () => {
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const roomId = await createRoom(a, bob, [alice]);
  const probe = await Probe.open(wsUrl(b), alice.token);
  try {
    await probe.subscribeEvents();
    const lost = randomUUID();
    await recordSilently(a, alice.id, lost);
    const next = await send(a, bob, roomId, 'after the lost one');
    await probe.waitFor((e) => e.payload.messageId === next);
    const start = probe.events[0]!.seq;
    expect(seqs(probe.events)).toEqual(consecutive(start, probe.events.length));
    expect(probe.events.findIndex((e) => e.payload.marker === lost)).toBeLessThan(
      probe.events.findIndex((e) => e.payload.messageId === next),
    );
  } finally {
    await probe.close();
  }

  const c = await node({ realtimeSweepMs: 200 });
  const quiet = await Probe.open(wsUrl(c), alice.token);
  try {
    await quiet.subscribeEvents();
    const lost = randomUUID();
    await recordSilently(a, alice.id, lost);
    const got = await quiet.waitFor((e) => e.payload.marker === lost, 5000);
    expect(got.seq).toBe(quiet.lastSeq + 1);
  } finally {
    await quiet.close();
    await c.stop();
  }
});

test('the pruning job removes events older than the retention window and keeps the rest', async () => {
  // Rows of their own (negative ids are never outbox ids); nothing else in this file's database is a day old.
  const account = '00000000-0000-7000-8000-00000000a001';
  const now = new Date();
  await a.db.query(
    `insert into event_log (id, topic, payload, created_at)
     values (-2, 't', '{}', $1::timestamptz - interval '25 hours'), (-1, 't', '{}', $1::timestamptz - interval '23 hours')`,
    [now],
  );
  await a.db.query('insert into user_events (account_id, seq, event_id) values ($1, 1, -2), ($1, 2, -1)', [account]);
  const sql = createSqlPool(a.databaseUrl, 2);
  try {
    expect(await pruneEventLog(sql, 24, now)).toBe(1);
    expect((await a.db.query('select id from event_log where id < 0')).rows).toEqual([{ id: -1 }]);
    expect((await a.db.query('select seq from user_events where account_id = $1', [account])).rows).toEqual([{ seq: 2 }]);
    expect(await pruneEventLog(sql, 47, now)).toBe(0);
  } finally {
    await a.db.query('delete from user_events where account_id = $1', [account]);
    await a.db.query('delete from event_log where id < 0');
    await sql.end();
  }
});

test("pruning keeps each account's newest seq: its newest row outlives the window until a newer one supersedes it", async () => {
  const account = '00000000-0000-7000-8000-00000000a002';
  const marked = '00000000-0000-7000-8000-00000000a003';
  const now = new Date();
  const sql = createSqlPool(a.databaseUrl, 2);
  try {
    await a.db.query(
      `insert into event_log (id, topic, payload, created_at)
       values (-14, 't', '{}', $1::timestamptz - interval '30 hours'), (-13, 't', '{}', $1::timestamptz - interval '26 hours'),
              (-16, 't', '{}', $1::timestamptz - interval '30 hours')`,
      [now],
    );
    // Event 0 is the marker the counters' removal left where a log had been pruned past its counter.
    await a.db.query('insert into user_events (account_id, seq, event_id) values ($1, 1, -14), ($1, 2, -13), ($2, 7, 0), ($2, 8, -16)', [
      account,
      marked,
    ]);
    expect(await pruneEventLog(sql, 24, now)).toBe(1);
    expect((await a.db.query('select seq from user_events where account_id = $1', [account])).rows).toEqual([{ seq: 2 }]);
    expect((await a.db.query('select seq from user_events where account_id = $1', [marked])).rows).toEqual([{ seq: 8 }]);
    expect((await a.db.query('select id from event_log where id in (-13, -14, -16) order by id')).rows).toEqual([{ id: -16 }, { id: -13 }]);
    expect(await lastSeqOf(sql, account)).toBe(2);
    const page = await readUserEvents(sql, account, 1, 10);
    expect([page.lastSeq, page.events.map((e) => e.seq)]).toEqual([2, [2]]);

    await a.db.query(`insert into event_log (id, topic, payload, created_at) values (-15, 't', '{}', $1)`, [now]);
    await a.db.query('insert into user_events (account_id, seq, event_id) values ($1, 3, -15)', [account]);
    expect(await pruneEventLog(sql, 24, now)).toBe(1);
    expect((await a.db.query('select seq from user_events where account_id = $1', [account])).rows).toEqual([{ seq: 3 }]);
    expect((await readUserEvents(sql, account, 1, 10)).expired).toBe(true);
  } finally {
    await a.db.query('delete from user_events where account_id = any($1::uuid[])', [[account, marked]]);
    await a.db.query('delete from event_log where id < 0');
    await sql.end();
  }
});
