// Typing and presence across two chat nodes: notices reach the other members' sessions on either node through
// /user/queue/ephemeral, only members may send them, the rate is limited per account and room, nothing is written
// to PostgreSQL, and presence is told only to those who share a room or a contact.
import { Redis } from 'ioredis';
import { newId } from '../../../src/platform/ids.js';
import { PresenceStore } from '../../../src/chat/presence/store.js';
import { eventually, expectError, expectOk } from '../../helpers/expect.js';
import { call, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { api, createRoom, Probe, RawStomp, startNode, wsUrl } from './support.js';
import { orDefault } from '../../helpers/data.js';

let a: TestPlatform;
let b: TestPlatform;
beforeAll(async () => {
  a = await startNode();
  b = await startNode();
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

interface Notice {
  topic: string;
  createdAt: string;
  payload: Record<string, any>;
}

/** A connected client subscribed to /user/queue/ephemeral, recording what arrives there. */
async function listener(node: TestPlatform, who: TestAccount): Promise<{ probe: Probe; notices: Notice[]; topics: string[] }> {
  const probe = await Probe.open(wsUrl(node), who.token);
  const notices: Notice[] = [];
  const topics: string[] = [];
  await new Promise<void>((resolve) => {
    probe.client.watchForReceipt('sub-ephemeral', () => resolve());
    probe.client.subscribe(
      '/user/queue/ephemeral',
      (m) => {
        notices.push(JSON.parse(m.body) as Notice);
        topics.push(m.headers.topic ?? '');
      },
      { id: 'ephemeral', receipt: 'sub-ephemeral' },
    );
  });
  return { probe, notices, topics };
}

/** SENDs a typing notice over STOMP and resolves on the server's receipt. */
function stompTyping(probe: Probe, roomId: string, receipt: string): Promise<void> {
  return new Promise((resolve) => {
    probe.client.watchForReceipt(receipt, () => resolve());
    probe.client.publish({ destination: `/app/rooms/${roomId}/typing`, headers: { receipt } });
  });
}

const typingIn = (roomId: string, from: string) => (n: Notice) =>
  n.topic === 'typing' && n.payload.roomId === roomId && n.payload.accountId === from;
const presenceOf = (accountId: string, status: string) => (n: Notice) =>
  n.topic === 'presence' && n.payload.accountId === accountId && n.payload.status === status;

/** Rows that typing or presence must never add: outbox events and per-account log entries. */
/** Outbox rows addressed to these rooms or accounts and the accounts' event-log rows (other suites write their own). */
async function eventRows(p: TestPlatform, accountIds: string[], roomIds: string[]): Promise<number> {
  const { rows } = await p.db.query<{ n: string }>(
    `select (select count(*) from outbox
              where payload->'audience'->>'roomId' = any($2::text[]) or payload->'audience'->'accountIds' ?| $1::text[])
          + (select count(*) from user_events where account_id = any($1::uuid[])) as n`,
    [accountIds, roomIds],
  );
  return Number(rows[0]!.n);
}

/** The count once the relay has written what the rooms' creation caused: the same twice, 300 ms apart. */
async function settledEventRows(p: TestPlatform, accountIds: string[], roomIds: string[]): Promise<number> {
  let last = -1;
  for (;;) {
    const n = await eventRows(p, accountIds, roomIds);
    if (n === last) return n;
    last = n;
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('typing', () => {
  test('a STOMP SEND on node A reaches the other members on node B, not the sender, not outsiders; nothing is written', async () => {
    const tenant = await a.tenant();
    const [alice, bob, carol] = [await tenant.account(), await tenant.account(), await tenant.account()];
    const roomId = await createRoom(a, alice, [bob]);
    const otherRoom = await createRoom(a, alice, [carol]);
    const sender = await listener(a, alice);
    const member = await listener(b, bob);
    const outsider = await listener(b, carol);
    try {
      const scope: [string[], string[]] = [
        [alice.id, bob.id, carol.id],
        [roomId, otherRoom],
      ];
      const before = await settledEventRows(a, ...scope);
      const sentAt = Date.now();
      await stompTyping(sender.probe, roomId, 't1');
      const notice = await eventually(async () => member.notices.find(typingIn(roomId, alice.id)));
      expect(notice.payload).toEqual({ roomId, accountId: alice.id, expiresAt: expect.any(String), ttlMs: 6000 });
      const expiresIn = Date.parse(notice.payload.expiresAt) - sentAt;
      expect(expiresIn).toBeGreaterThanOrEqual(5000);
      expect(expiresIn).toBeLessThanOrEqual(7000);
      expect(member.topics).toContain('typing');
      // carol hears alice typing in the room they share, and only after the first notice was published: by then
      // the first one would have reached her too, had it been hers to get.
      await stompTyping(sender.probe, otherRoom, 't2');
      await eventually(async () => outsider.notices.find(typingIn(otherRoom, alice.id)));
      expect(outsider.notices.filter((n) => n.payload.roomId === roomId)).toEqual([]);
      expect(sender.notices.filter((n) => n.topic === 'typing')).toEqual([]);
      expect(await eventRows(a, ...scope)).toBe(before);
    } finally {
      await Promise.all([sender.probe.close(), member.probe.close(), outsider.probe.close()]);
    }
  });

  test('REST twin: 200 with the notice; a second within 2 s is 429 rate_limited with Retry-After and is not delivered', async () => {
    const tenant = await a.tenant();
    const [alice, bob] = [await tenant.account(), await tenant.account()];
    const roomId = await createRoom(a, alice, [bob]);
    const member = await listener(b, bob);
    try {
      const first = await call(a.chatUrl, 'POST', `/api/v1/rooms/${roomId}/typing`, { token: alice.token });
      expectOk(first);
      expect(first.body.data).toMatchObject({ roomId, accountId: alice.id, ttlMs: 6000 });
      // The window is per account across nodes: node B refuses what follows node A's notice.
      const second = await call(b.chatUrl, 'POST', `/api/v1/rooms/${roomId}/typing`, { token: alice.token });
      expectError(second, 429, 'rate_limited');
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // bob may type in the same room at the same time: the window is the account's own.
      expectOk(await call(b.chatUrl, 'POST', `/api/v1/rooms/${roomId}/typing`, { token: bob.token }));
      await eventually(async () => member.notices.find(typingIn(roomId, alice.id)));
      await new Promise((r) => setTimeout(r, 200));
      expect(member.notices.filter(typingIn(roomId, alice.id))).toHaveLength(1);
      // After the window another notice goes out.
      await new Promise((r) => setTimeout(r, 2000));
      expectOk(await call(a.chatUrl, 'POST', `/api/v1/rooms/${roomId}/typing`, { token: alice.token }));
      await eventually(async () => member.notices.filter(typingIn(roomId, alice.id)).length === 2);
    } finally {
      await member.probe.close();
    }
  });

  test('a flood over STOMP: notices within the window are dropped with their receipts, the session stays open', async () => {
    const tenant = await a.tenant();
    const [alice, bob] = [await tenant.account(), await tenant.account()];
    const roomId = await createRoom(a, alice, [bob]);
    const sender = await listener(a, alice);
    const member = await listener(b, bob);
    try {
      for (let i = 0; i < 10; i++) await stompTyping(sender.probe, roomId, `flood-${i}`);
      await eventually(async () => member.notices.find(typingIn(roomId, alice.id)));
      await new Promise((r) => setTimeout(r, 200));
      expect(member.notices.filter(typingIn(roomId, alice.id))).toHaveLength(1);
      expect(sender.probe.errors).toEqual([]);
      expect(sender.probe.client.connected).toBe(true);
    } finally {
      await Promise.all([sender.probe.close(), member.probe.close()]);
    }
  });

  test('a non-member: 404 room_not_found over REST, the ERROR frame room_not_found over STOMP; nobody hears it', async () => {
    const tenant = await a.tenant();
    const [alice, bob, mallory] = [await tenant.account(), await tenant.account(), await tenant.account()];
    const roomId = await createRoom(a, alice, [bob]);
    const member = await listener(b, bob);
    try {
      expectError(await call(a.chatUrl, 'POST', `/api/v1/rooms/${roomId}/typing`, { token: mallory.token }), 404, 'room_not_found');
      expectError(await call(a.chatUrl, 'POST', `/api/v1/rooms/${newId()}/typing`, { token: mallory.token }), 404, 'room_not_found');
      const raw = await RawStomp.connected(wsUrl(a), mallory.token);
      raw.send(`SEND\ndestination:/app/rooms/${roomId}/typing\nreceipt:9\n\n\0`);
      expect((await raw.error()).headers).toMatchObject({ code: 'room_not_found', 'receipt-id': '9' });
      await new Promise((r) => setTimeout(r, 200));
      expect(member.notices.filter((n) => n.topic === 'typing')).toEqual([]);
    } finally {
      await member.probe.close();
    }
  });

  test('SEND to any other destination is still refused with send_not_supported', async () => {
    const tenant = await a.tenant();
    const alice = await tenant.account();
    const raw = await RawStomp.connected(wsUrl(a), alice.token);
    raw.send(`SEND\ndestination:/app/rooms/${'-'.repeat(36)}/typing\n\n\0`);
    expect((await raw.error()).headers).toMatchObject({ code: 'send_not_supported' });
    const other = await RawStomp.connected(wsUrl(a), alice.token);
    other.send(`SEND\ndestination:/app/rooms/${newId()}/messages\n\nhello\0`);
    expect((await other.error()).headers).toMatchObject({ code: 'send_not_supported' });
  });
});

describe('presence', () => {
  test('connect, AWAY, back ONLINE and disconnect are told to a room co-member on the other node; GET agrees; last-seen is kept', async () => {
    const tenant = await a.tenant();
    const [alice, bob] = [await tenant.account(), await tenant.account()];
    await createRoom(a, bob, [alice]);
    const watcher = await listener(a, bob);
    const get = async (who: TestAccount, ids: string[]) => {
      const res = await call(a.chatUrl, 'GET', `/api/v1/presence?accountIds=${ids.join(',')}`, { token: who.token });
      expectOk(res);
      return res.body.data as Array<Record<string, any>>;
    };
    try {
      expect(await get(bob, [alice.id])).toEqual([{ accountId: alice.id, status: 'OFFLINE' }]);
      const aliceOnB = await Probe.open(wsUrl(b), alice.token);
      await eventually(async () => watcher.notices.find(presenceOf(alice.id, 'ONLINE')));
      expect(await get(bob, [alice.id])).toEqual([{ accountId: alice.id, status: 'ONLINE' }]);

      expect(await api(b, alice, 'PUT', '/me/presence', { status: 'AWAY' })).toEqual({ accountId: alice.id, status: 'AWAY' });
      await eventually(async () => watcher.notices.find(presenceOf(alice.id, 'AWAY')));
      expect(await get(bob, [alice.id])).toEqual([{ accountId: alice.id, status: 'AWAY' }]);
      // Setting it again changes nothing and tells nobody.
      await api(b, alice, 'PUT', '/me/presence', { status: 'AWAY' });
      await api(b, alice, 'PUT', '/me/presence', { status: 'ONLINE' });
      await eventually(async () => watcher.notices.filter(presenceOf(alice.id, 'ONLINE')).length === 2);
      expect(watcher.notices.filter((n) => n.payload.accountId === alice.id).map((n) => n.payload.status)).toEqual([
        'ONLINE',
        'AWAY',
        'ONLINE',
      ]);

      // A second session changes nothing; closing one of two keeps alice ONLINE; closing the last makes her OFFLINE.
      const second = await Probe.open(wsUrl(a), alice.token);
      await second.close();
      await new Promise((r) => setTimeout(r, 200));
      expect(await get(bob, [alice.id])).toEqual([{ accountId: alice.id, status: 'ONLINE' }]);
      await aliceOnB.close();
      const offline = await eventually(async () => watcher.notices.find(presenceOf(alice.id, 'OFFLINE')));
      expect(offline.payload.lastSeenAt).toEqual(expect.any(String));
      expect(watcher.notices.filter((n) => n.payload.accountId === alice.id).map((n) => n.payload.status)).toEqual([
        'ONLINE',
        'AWAY',
        'ONLINE',
        'OFFLINE',
      ]);
      const [seen] = await get(bob, [alice.id]);
      expect(seen).toEqual({ accountId: alice.id, status: 'OFFLINE', lastSeenAt: offline.payload.lastSeenAt });
      expect(Math.abs(Date.parse(seen!.lastSeenAt) - Date.now())).toBeLessThan(10_000);
    } finally {
      await watcher.probe.close();
    }
  });

  test('a stranger learns nothing: no presence events, and OFFLINE without last-seen, the same as for an id that does not exist', async () => {
    const tenant = await a.tenant();
    const [alice, bob, stranger] = [await tenant.account(), await tenant.account(), await tenant.account()];
    await createRoom(a, bob, [alice]);
    const watcher = await listener(a, bob);
    const outsider = await listener(a, stranger);
    try {
      const aliceProbe = await Probe.open(wsUrl(b), alice.token);
      await eventually(async () => watcher.notices.find(presenceOf(alice.id, 'ONLINE')));
      const unknown = newId();
      const res = await call(a.chatUrl, 'GET', `/api/v1/presence?accountIds=${alice.id},${unknown},${alice.id}`, { token: stranger.token });
      expectOk(res);
      expect(res.body.data).toEqual([
        { accountId: alice.id, status: 'OFFLINE' },
        { accountId: unknown, status: 'OFFLINE' },
      ]);
      await aliceProbe.close();
      await eventually(async () => watcher.notices.find(presenceOf(alice.id, 'OFFLINE')));
      expect(outsider.notices.filter((n) => n.payload.accountId === alice.id)).toEqual([]);
    } finally {
      await Promise.all([watcher.probe.close(), outsider.probe.close()]);
    }
  });

  test('an accepted contact sees presence without sharing a room', async () => {
    const tenant = await a.tenant();
    const [alice, bob] = [await tenant.account(), await tenant.account()];
    const request = await api(a, alice, 'POST', '/contacts/requests', { accountId: bob.id });
    await api(a, bob, 'POST', `/contacts/requests/${request.id}/accept`);
    const watcher = await listener(a, bob);
    try {
      const aliceProbe = await Probe.open(wsUrl(b), alice.token);
      await eventually(async () => watcher.notices.find(presenceOf(alice.id, 'ONLINE')));
      const res = await call(a.chatUrl, 'GET', `/api/v1/presence?accountIds=${alice.id}`, { token: bob.token });
      expect(res.body.data).toEqual([{ accountId: alice.id, status: 'ONLINE' }]);
      await aliceProbe.close();
    } finally {
      await watcher.probe.close();
    }
  });

  test('bad input: more than 100 ids, a non-UUID id, no ids and a status other than ONLINE/AWAY are 400s; 10,000 ids are 431; all in the chat envelope', async () => {
    const alice = await (await a.tenant()).account();
    const ids = (n: number) => Array.from({ length: n }, () => newId()).join(',');
    const ok = await call(a.chatUrl, 'GET', `/api/v1/presence?accountIds=${ids(100)}`, { token: alice.token });
    expectOk(ok);
    expect(ok.body.data).toHaveLength(100);
    expectError(await call(a.chatUrl, 'GET', `/api/v1/presence?accountIds=${ids(101)}`, { token: alice.token }), 400, 'validation_failed');
    expectError(
      await call(a.chatUrl, 'GET', `/api/v1/presence?accountIds=${newId()},nope-${'x'.repeat(31)}`, { token: alice.token }),
      400,
      'validation_failed',
    );
    expectError(await call(a.chatUrl, 'GET', '/api/v1/presence', { token: alice.token }), 400, 'validation_failed');
    const huge = await call(a.chatUrl, 'GET', `/api/v1/presence?accountIds=${ids(10_000)}`, { token: alice.token });
    // 10,000 ids make a request line of ~370 KB: the listener refuses it before any handler, in the chat envelope.
    expectError(huge, 431, 'headers_too_large');
    expectError(
      await call(a.chatUrl, 'PUT', '/api/v1/me/presence', { token: alice.token, body: { status: 'OFFLINE' } }),
      400,
      'validation_failed',
    );
  });
});

describe('presence store', () => {
  test('a session that stops refreshing (its node died) stops counting after its TTL; refreshing keeps it', async () => {
    const redis = new Redis(orDefault(a.config.redisUrl, process.env.TEST_REDIS_URL!));
    try {
      const store = new PresenceStore(redis);
      const id = newId();
      expect(await store.touch(id, 's1', 300)).toBe(true);
      // A heart-beat of the only live session is no change: nothing to announce.
      expect(await store.touch(id, 's1', 300)).toBe(false);
      expect(await store.touch(id, 's2', 300)).toBe(false);
      expect((await store.read([id])).get(id)).toMatchObject({ online: true });
      await new Promise((r) => setTimeout(r, 200));
      expect(await store.touch(id, 's1', 300)).toBe(false);
      await new Promise((r) => setTimeout(r, 200));
      // s2 expired, s1 was refreshed.
      expect((await store.read([id])).get(id)).toMatchObject({ online: true });
      await new Promise((r) => setTimeout(r, 250));
      const gone = (await store.read([id])).get(id)!;
      expect(gone.online).toBe(false);
      expect(gone.lastSeen).toBeGreaterThan(Date.now() - 5_000);
      // The next sign of life is a fresh start.
      expect(await store.touch(id, 's1', 300)).toBe(true);
      // A session with a short interval does not cut short the key of one with a long interval.
      const other = newId();
      await store.touch(other, 'long', 60_000);
      await store.touch(other, 'short', 100);
      await new Promise((r) => setTimeout(r, 400));
      expect((await store.read([other])).get(other)).toMatchObject({ online: true });
    } finally {
      redis.disconnect();
    }
  });
});
