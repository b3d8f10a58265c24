// The chat service on a Redis Cluster (three masters): two nodes that share only the cluster and PostgreSQL; a send
// on one reaches a STOMP client on the other (pub/sub is broadcast over the cluster bus); a scheduled message is
// fired by its delayed BullMQ job (the sweeper is set to an hour, so only the job can fire it); the built platform
// given only REDIS_CLUSTER_NODES joins the same cluster; every queue's keys carry their own hash tag and spread over
// the masters; presence, whose scripts touch two keys of an account, works across the slots.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eventually } from '../../helpers/expect.js';
import { startChildPlatform } from '../../support/child-platform.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { createRoom, isMessageIn, Probe, send, wsUrl } from '../realtime/support.js';
import { clusterInfra, type ClusterInfra } from './support.js';
import { eventOf } from '../../helpers/match.js';

let infra: ClusterInfra;
let a: TestPlatform;
let b: TestPlatform;

beforeAll(async () => {
  infra = await clusterInfra();
  const shared = {
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    services: ['chat' as const, 'workers' as const],
    scheduleSweepMs: 3_600_000,
  };
  [a, b] = await Promise.all([startTestPlatform(shared), startTestPlatform(shared)]);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await infra?.stop();
});

test('a message sent through either node is stored once and reaches the members connected to the other node', async () => {
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const aliceOnB = await Probe.open(wsUrl(b), alice.token);
  const bobOnA = await Probe.open(wsUrl(a), bob.token);
  try {
    await aliceOnB.subscribeEvents();
    await bobOnA.subscribeEvents();
    const roomId = await createRoom(a, bob, [alice], 'Cluster');
    const fromA = await send(a, bob, roomId, 'through node A');
    const fromB = await send(b, alice, roomId, 'through node B');

    await aliceOnB.waitFor(eventOf('message.created', { roomId, messageId: fromB }), 15_000);
    await bobOnA.waitFor(eventOf('message.created', { roomId, messageId: fromB }), 15_000);
    expect(aliceOnB.events.filter(isMessageIn(roomId)).map((e) => e.payload.messageId)).toEqual([fromA, fromB]);
    expect(bobOnA.events.filter(isMessageIn(roomId)).map((e) => e.payload.messageId)).toEqual([fromA, fromB]);
    expect(await count(a.db, 'select count(*) as n from messages where room_id = $1', [roomId])).toBe(2);

    const history = await call(b.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages`, { token: alice.token });
    expect(history.status).toBe(200);
    expect(history.body.data.map((m: { text: string }) => m.text).sort()).toEqual(['through node A', 'through node B']);
  } finally {
    await aliceOnB.close();
    await bobOnA.close();
  }
});

test('presence lives on the cluster: a session on one node shows its account ONLINE to a co-member asking the other, and OFFLINE once it closes', async () => {
  const tenant = await a.tenant();
  const [alice, bob, carol] = [await tenant.account(), await tenant.account(), await tenant.account()];
  await createRoom(a, bob, [alice, carol], 'Presence');
  // Several accounts in one question: their keys lie in different slots.
  const statusOfAlice = async () => {
    const res = await call(b.chatUrl, 'GET', `/api/v1/presence?accountIds=${carol.id},${alice.id},${bob.id}`, { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { accountId: string }) => p.accountId)).toEqual([carol.id, alice.id, bob.id]);
    expect(res.body.data[0].status).toBe('OFFLINE');
    return res.body.data[1].status as string;
  };
  const aliceOnA = await Probe.open(wsUrl(a), alice.token);
  try {
    await eventually(async () => (await statusOfAlice()) === 'ONLINE', 10_000);
  } finally {
    await aliceOnA.close();
  }
  await eventually(async () => (await statusOfAlice()) === 'OFFLINE', 10_000);
});

test('a scheduled message fires at its time through its delayed job and reaches the member on the other node', async () => {
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const aliceOnB = await Probe.open(wsUrl(b), alice.token);
  try {
    await aliceOnB.subscribeEvents();
    const roomId = await createRoom(a, bob, [alice], 'Later');
    const sendAt = new Date(Date.now() + 4_000);
    const scheduled = await call(a.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages/scheduled`, {
      token: bob.token,
      body: { text: 'on time', sendAt: sendAt.toISOString() },
    });
    expect(scheduled.status).toBe(201);

    const event = await aliceOnB.waitFor((e) => isMessageIn(roomId)(e), 30_000);
    expect(Date.now()).toBeGreaterThanOrEqual(sendAt.getTime());
    const { rows } = await a.db.query<{ text: string }>('select text from messages where id = $1', [event.payload.messageId]);
    expect(rows[0]?.text).toBe('on time');
    await eventually(
      async () =>
        (await count(a.db, "select count(*) as n from scheduled_messages where id = $1 and status = 'SENT'", [scheduled.body.data.id])) ===
        1,
      10_000,
    );
  } finally {
    await aliceOnB.close();
  }
});

test('the built platform given only REDIS_CLUSTER_NODES joins the cluster: its sends reach a member on another node', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cluster-child-'));
  const seeds = infra.redisUrl.replace('redis+cluster://', '');
  // No workers: its sends ask the other nodes' workers for a drain through the outbox queue on the cluster.
  const child = await startChildPlatform({
    dataDir,
    env: { DATABASE_URL: infra.databaseUrl, REDIS_CLUSTER_NODES: seeds, SERVICES: 'chat', LOG_LEVEL: 'info' },
  });
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const aliceOnB = await Probe.open(wsUrl(b), alice.token);
  try {
    expect((await fetch(`${child.chatUrl}/readyz`)).status).toBe(200);
    await aliceOnB.subscribeEvents();
    const room = await call(child.chatUrl, 'POST', '/api/v1/rooms', {
      token: bob.token,
      body: { type: 'GROUP', name: 'Seeds', memberIds: [alice.id] },
    });
    expect(room.status).toBe(201);
    const sent = await call(child.chatUrl, 'POST', `/api/v1/rooms/${room.body.data.id}/messages`, {
      token: bob.token,
      body: { text: 'from the seeds' },
    });
    expect(sent.status).toBe(201);
    await aliceOnB.waitFor(eventOf('message.created', { messageId: sent.body.data.id }), 15_000);
  } finally {
    await aliceOnB.close();
    child.proc.kill('SIGTERM');
    await child.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
});

test("each queue's keys share a hash tag of their own, and the queues spread over more than one master", async () => {
  const queueKeys = await infra.keys('{*}:*');
  const tags = new Set(queueKeys.map((k) => k.slice(0, k.indexOf('}') + 1)));
  expect([...tags]).toEqual(expect.arrayContaining(['{outbox}', '{time}', '{maintenance}']));
  // No key of BullMQ's untagged default prefix: it would sit in a slot of its own and break the queue's scripts.
  expect(await infra.keys('bull:*')).toEqual([]);
  const metaKeys = ['{outbox}:outbox:meta', '{time}:time:meta', '{maintenance}:maintenance:meta'];
  const slots = await Promise.all(metaKeys.map(async (key) => Number(await infra.redis.call('CLUSTER', 'KEYSLOT', key))));
  const owners = await infra.slotOwners(slots);
  expect(new Set(owners).size).toBeGreaterThan(1);
});
