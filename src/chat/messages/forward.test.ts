// Forwarding over the real listener: copies in order with their origin and sequence numbers, all or nothing.
import { newId } from '../../platform/ids.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let tenant: TestTenant;
let fx: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
});
afterAll(async () => {
  await platform.stop();
});

interface Msg {
  id: string;
  roomId: string;
  senderId: string;
  text: string | null;
  forwardedFrom: { roomId: string; messageId: string } | null;
}

const messagesIn = (roomId: string) => count(platform.db, 'select count(*) as n from messages where room_id = $1', [roomId]);
const lastSeq = async (roomId: string) =>
  Number((await platform.db.query('select last_seq from rooms where id = $1', [roomId])).rows[0].last_seq);
const createdEvents = (roomId: string) => fx.events('message.created', { roomId });

/** Alice is in both rooms, Bob only in the source room, Carol only in the target room. */
async function twoRooms(): Promise<{
  alice: TestAccount;
  bob: TestAccount;
  carol: TestAccount;
  source: string;
  target: string;
  sent: string[];
}> {
  const [alice, bob, carol] = await Promise.all([tenant.account(), tenant.account(), tenant.account()]);
  const source = await fx.room(bob, [alice]);
  const target = await fx.room(carol, [alice]);
  const sent: string[] = [];
  for (let i = 0; i < 3; i++) sent.push((await fx.send(bob, source, `s${i}`)).id);
  await fx.send(carol, target, 'already here');
  return { alice, bob, carol, source, target, sent };
}

/** Everything a forward could have changed in the target room. */
const snapshot = async (roomId: string) => ({
  messages: await messagesIn(roomId),
  seq: await lastSeq(roomId),
  events: await createdEvents(roomId),
});

describe('forward', () => {
  test('copies in the order given, sent by the caller, with forwardedFrom, the next sequence numbers and one event each', async () => {
    const r = await twoRooms();
    const seqBefore = await lastSeq(r.target);
    const res = await fx.api(r.alice, 'POST', `/rooms/${r.target}/forward`, { fromRoomId: r.source, messageIds: [r.sent[2], r.sent[0]] });
    expectOk(res);
    const copies: Msg[] = res.body.data;
    expect(copies.map((m) => m.text)).toEqual(['s2', 's0']);
    for (const [i, m] of copies.entries()) {
      expect(m).toMatchObject({
        roomId: r.target,
        senderId: r.alice.id,
        recalled: false,
        hiddenForMe: false,
        editedAt: null,
        threadRootId: null,
      });
      expect(m.forwardedFrom).toEqual({ roomId: r.source, messageId: [r.sent[2], r.sent[0]][i] });
    }
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    expect(await lastSeq(r.target)).toBe(seqBefore + 2);
    const { rows } = await platform.db.query(
      'select id, seq from messages where room_id = $1 and forwarded_from_message_id is not null order by seq',
      [r.target],
    );
    expect(rows.map((x) => x.id)).toEqual(copies.map((m) => m.id));
    expect(rows.map((x) => Number(x.seq))).toEqual([seqBefore + 1, seqBefore + 2]);
    // The copies read back with their origin, and appear at the end of the room's scroll for its members.
    expect((await fx.api(r.carol, 'GET', `/rooms/${r.target}/messages/${copies[0]!.id}`)).body.data.forwardedFrom).toEqual({
      roomId: r.source,
      messageId: r.sent[2],
    });
    const page = await fx.api(r.carol, 'GET', `/rooms/${r.target}/messages`);
    expect(page.body.data.map((m: Msg) => m.text)).toEqual(['already here', 's2', 's0']);
    const events = await fx.payloads('message.created', copies[1]!.id);
    expect(events).toEqual([
      {
        audience: { kind: 'room', roomId: r.target },
        roomId: r.target,
        messageId: copies[1]!.id,
        senderId: r.alice.id,
        seq: seqBefore + 2,
        forwardedFrom: { roomId: r.source, messageId: r.sent[0] },
      },
    ]);
    // The originals are untouched.
    expect(await messagesIn(r.source)).toBe(3);
  });

  test('from a room the caller cannot read: 404 room_not_found naming body.fromRoomId, and nothing is created', async () => {
    const r = await twoRooms();
    const before = await snapshot(r.target);
    const res = await fx.api(r.carol, 'POST', `/rooms/${r.target}/forward`, { fromRoomId: r.source, messageIds: [r.sent[0]] });
    expectError(res, 404, 'room_not_found', 'body.fromRoomId');
    expectError(
      await fx.api(r.carol, 'POST', `/rooms/${r.target}/forward`, { fromRoomId: newId(), messageIds: [r.sent[0]] }),
      404,
      'room_not_found',
    );
    expect(await snapshot(r.target)).toEqual(before);
  });

  test('into a room the caller is not in: 404 room_not_found, nothing created', async () => {
    const r = await twoRooms();
    const before = await snapshot(r.target);
    expectError(
      await fx.api(r.bob, 'POST', `/rooms/${r.target}/forward`, { fromRoomId: r.source, messageIds: [r.sent[0]] }),
      404,
      'room_not_found',
    );
    expect(await snapshot(r.target)).toEqual(before);
  });

  test('an id that is not a message of the source room: 404 message_not_found with its index, nothing created', async () => {
    const r = await twoRooms();
    const elsewhere = (await fx.send(r.carol, r.target, 'in target')).id;
    const before = await snapshot(r.target);
    const res = await fx.api(r.alice, 'POST', `/rooms/${r.target}/forward`, {
      fromRoomId: r.source,
      messageIds: [r.sent[0], elsewhere, newId()],
    });
    expectError(res, 404, 'message_not_found', ['body.messageIds[1]', 'body.messageIds[2]']);
    expect(res.body.error.details).toHaveLength(2);
    expect(await snapshot(r.target)).toEqual(before);
  });

  test('a recalled message: 409 message_recalled with its index, nothing created', async () => {
    const r = await twoRooms();
    expectOk(await fx.api(r.bob, 'POST', `/rooms/${r.source}/messages/${r.sent[1]}/recall`));
    const before = await snapshot(r.target);
    const res = await fx.api(r.alice, 'POST', `/rooms/${r.target}/forward`, { fromRoomId: r.source, messageIds: [r.sent[0], r.sent[1]] });
    expectError(res, 409, 'message_recalled', 'body.messageIds[1]');
    expect(await snapshot(r.target)).toEqual(before);
  });

  test('bad bodies are 400 validation_failed and create nothing', async () => {
    const r = await twoRooms();
    const before = await snapshot(r.target);
    const path = `/rooms/${r.target}/forward`;
    const ids = Array.from({ length: 51 }, () => newId());
    expectError(await fx.api(r.alice, 'POST', path, { fromRoomId: r.source, messageIds: [] }), 400, 'validation_failed', 'body.messageIds');
    expectError(
      await fx.api(r.alice, 'POST', path, { fromRoomId: r.source, messageIds: ids }),
      400,
      'validation_failed',
      'body.messageIds',
    );
    expectError(
      await fx.api(r.alice, 'POST', path, { fromRoomId: r.source, messageIds: [r.sent[0], r.sent[0]] }),
      400,
      'validation_failed',
      'body.messageIds',
    );
    expectError(
      await fx.api(r.alice, 'POST', path, { fromRoomId: r.source, messageIds: [r.sent[0], r.sent[0]!.toUpperCase()] }),
      400,
      'validation_failed',
      // ids are lower-cased before validation (one uuid rule), so these two are the same id repeated
      'body.messageIds',
    );
    expectError(
      await fx.api(r.alice, 'POST', path, { fromRoomId: 'nope', messageIds: [r.sent[0]] }),
      400,
      'validation_failed',
      'body.fromRoomId',
    );
    expectError(await fx.api(r.alice, 'POST', path, { messageIds: [r.sent[0]] }), 400, 'validation_failed', 'body.fromRoomId');
    expectError(await fx.api(r.alice, 'POST', path, { fromRoomId: r.source, messageIds: ['x'] }), 400, 'validation_failed');
    expect(await snapshot(r.target)).toEqual(before);
  });

  test('forwarding within the same room works, and a copy of a copy points at the message it was made from', async () => {
    const r = await twoRooms();
    const first = await fx.api(r.alice, 'POST', `/rooms/${r.target}/forward`, { fromRoomId: r.source, messageIds: [r.sent[0]] });
    const copy: Msg = first.body.data[0];
    const again = await fx.api(r.carol, 'POST', `/rooms/${r.target}/forward`, { fromRoomId: r.target, messageIds: [copy.id] });
    expectOk(again);
    expect(again.body.data[0]).toMatchObject({ text: 's0', senderId: r.carol.id, forwardedFrom: { roomId: r.target, messageId: copy.id } });
  });

  test('concurrent forwards and sends get distinct consecutive sequence numbers', async () => {
    const r = await twoRooms();
    const start = await lastSeq(r.target);
    const work = [
      ...Array.from({ length: 5 }, () =>
        fx.api(r.alice, 'POST', `/rooms/${r.target}/forward`, { fromRoomId: r.source, messageIds: r.sent }),
      ),
      ...Array.from({ length: 5 }, (_, i) => fx.api(r.carol, 'POST', `/rooms/${r.target}/messages`, { text: `c${i}` })),
    ];
    for (const res of await Promise.all(work)) expect([200, 201]).toContain(res.status);
    const { rows } = await platform.db.query('select seq from messages where room_id = $1 and seq > $2 order by seq', [r.target, start]);
    expect(rows.map((x) => Number(x.seq))).toEqual(Array.from({ length: 20 }, (_, i) => start + 1 + i));
    expect(await lastSeq(r.target)).toBe(start + 20);
  });
});
