// The outbox relay end to end: an API write is published on Redis by the BullMQ worker right after commit; a
// row left behind (a crash between commit and the drain request) is published by the periodic safety net; and
// with several relays at work every row is published exactly once.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createSqlPool } from '../../src/platform/db/sql.js';
import { drainOutbox, eventsChannel, type RelayedEvent } from '../../src/platform/outbox.js';
import { count, eventually, expectOk } from '../helpers/expect.js';
import { call, isolatedInfra, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { eventOf } from '../helpers/match.js';

/** Collects every event published on the events channel (pub/sub is server-wide, so filter by marker). */
async function subscribe(): Promise<{ events: RelayedEvent[]; close(): Promise<void> }> {
  const sub = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: null });
  const events: RelayedEvent[] = [];
  sub.on('message', (channel: string, message: string) => {
    if (channel === eventsChannel) events.push(JSON.parse(message) as RelayedEvent);
  });
  await sub.subscribe(eventsChannel);
  return {
    events,
    async close() {
      await sub.quit();
    },
  };
}

const markerOf = (e: RelayedEvent) => (e.payload as { marker?: string } | null)?.marker;

/** How many times each marker that starts with the prefix was relayed. */
function markerCounts(events: RelayedEvent[], prefix: string): Map<string, number> {
  const seen = new Map<string, number>();
  for (const e of events) {
    const m = markerOf(e);
    if (m?.startsWith(prefix)) seen.set(m, (seen.get(m) ?? 0) + 1);
  }
  return seen;
}

test('a message sent through the API is published as message.created within seconds', async () => {
  const platform = await startTestPlatform(); // safety-net poll at 60 s: only the drain requested after commit can be this fast
  const events = await subscribe();
  try {
    const tenant = await platform.tenant();
    const alice = await tenant.account();
    const room = await call(platform.chatUrl, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Events' } });
    expectOk(room, 201);
    const sent = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${room.body.data.id}/messages`, {
      token: alice.token,
      body: { text: 'publish me' },
    });
    expectOk(sent, 201);
    const messageId = sent.body.data.id;

    const event = await eventually(async () => events.events.find(eventOf('message.created', { messageId })), 5000);
    expect(event.payload).toEqual({
      roomId: room.body.data.id,
      messageId,
      senderId: alice.id,
      seq: 1,
      threadRootId: null,
      audience: { kind: 'room', roomId: room.body.data.id },
    });
    expect(Number.isNaN(Date.parse(event.createdAt))).toBe(false);
    // The room creation went out too, and the rows are marked published.
    await eventually(async () => events.events.some(eventOf('room.created', { roomId: room.body.data.id })), 5000);
    await eventually(
      async () =>
        (await count(platform.db, "select count(*) as n from outbox where payload->>'roomId' = $1 and published_at is null", [
          room.body.data.id,
        ])) === 0,
      5000,
    );
    // Published once, not once per drain.
    await new Promise((r) => setTimeout(r, 200));
    expect(events.events.filter((e) => (e.payload as { messageId?: string }).messageId === messageId)).toHaveLength(1);
  } finally {
    await events.close();
    await platform.stop();
  }
});

describe('on a database and queue of their own', () => {
  test('a row nobody asked to drain is published by the periodic safety net', async () => {
    const infra = await isolatedInfra();
    const platform = await startTestPlatform({
      databaseUrl: infra.databaseUrl,
      redisUrl: infra.redisUrl,
      outboxPollMs: 250,
      services: ['workers'],
    });
    const events = await subscribe();
    try {
      const marker = randomUUID();
      // As if the process died after the commit and before requesting a drain.
      const { rows } = await platform.db.query<{ id: string }>(
        "insert into outbox (topic, payload) values ('test.orphan', $1) returning id",
        [JSON.stringify({ marker })],
      );
      const event = await eventually(async () => events.events.find((e) => markerOf(e) === marker), 4000);
      expect(event).toMatchObject({ id: String(rows[0]!.id), topic: 'test.orphan', payload: { marker } });
      await eventually(
        async () =>
          (await count(platform.db, 'select count(*) as n from outbox where id = $1 and published_at is not null', [rows[0]!.id])) === 1,
        2000,
      );
    } finally {
      await events.close();
      await platform.stop();
      await infra.drop();
    }
  });

  test('with two platform instances and extra concurrent relays, every row is published exactly once', async () => {
    const infra = await isolatedInfra();
    const options = { databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, outboxPollMs: 100, services: ['workers' as const] };
    const nodes: TestPlatform[] = await Promise.all([startTestPlatform(options), startTestPlatform(options)]);
    const events = await subscribe();
    // Two more relays racing the workers, with small batches so that they interleave.
    const sql = createSqlPool(infra.databaseUrl, 4);
    const publisher = new Redis(infra.redisUrl, { maxRetriesPerRequest: null });
    const run = randomUUID();
    const total = 1200;
    let inserting = true;
    const relay = async () => {
      while (inserting) {
        await drainOutbox(sql, publisher, 37);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    try {
      const relays = [relay(), relay()];
      for (let batch = 0; batch < 6; batch++) {
        await nodes[batch % 2]!.db.query(
          `insert into outbox (topic, payload)
           select 'test.once', jsonb_build_object('marker', $1::text || ':' || g) from generate_series($2::int, $3::int) g`,
          [run, batch * 200, batch * 200 + 199],
        );
        await new Promise((r) => setTimeout(r, 30));
      }
      inserting = false;
      await Promise.all(relays);
      await eventually(
        async () => (await count(nodes[0]!.db, 'select count(*) as n from outbox where published_at is null')) === 0,
        10_000,
        50,
      );
      await eventually(async () => events.events.filter((e) => markerOf(e)?.startsWith(`${run}:`)).length >= total, 5000, 50);
      await new Promise((r) => setTimeout(r, 300)); // a late duplicate would arrive here

      const seen = markerCounts(events.events, `${run}:`);
      expect(seen.size).toBe(total);
      const duplicated = [...seen].filter(([, n]) => n !== 1);
      expect(duplicated).toEqual([]);
      // Event ids are the outbox ids, each once.
      const ids = events.events.filter((e) => markerOf(e)?.startsWith(`${run}:`)).map((e) => e.id);
      expect(new Set(ids).size).toBe(total);
    } finally {
      inserting = false;
      await events.close();
      publisher.disconnect();
      await sql.end();
      await Promise.all(nodes.map((n) => n.stop()));
      await infra.drop();
    }
  });
});
