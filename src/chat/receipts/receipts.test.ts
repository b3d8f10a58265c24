// Read receipts over the real listener: receipts follow the read marks (the sender never listed), members only,
// the setting hiding both ways, readCount on scroll pages of small rooms, and message.read coalesced per room and
// sender.
import { chatFixtures, type RoomCast } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform } from '../../../test/support/platform.js';
import { newId } from '../../platform/ids.js';
import { sendDueNotices } from './notices.js';

let platform: TestPlatform;
let fx: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  fx = chatFixtures(platform, await platform.tenant());
});
afterAll(async () => {
  await platform.stop();
});

const receipts = (who: TestAccount, roomId: string, messageId: string) =>
  fx.api(who, 'GET', `/rooms/${roomId}/messages/${messageId}/receipts`);
const read = async (who: TestAccount, roomId: string, messageId: string) => {
  const res = await fx.api(who, 'POST', `/rooms/${roomId}/read`, { messageId });
  expectOk(res);
  return res;
};
const share = async (who: TestAccount, shareReadReceipts: boolean) => {
  const res = await fx.api(who, 'PUT', '/me/read-receipts', { shareReadReceipts });
  expectOk(res);
  return res;
};
const page = async (who: TestAccount, roomId: string) => {
  const res = await fx.api(who, 'GET', `/rooms/${roomId}/messages`);
  expectOk(res);
  return new Map<string, { readCount?: number }>(res.body.data.map((m: { id: string; readCount?: number }) => [m.id, m]));
};
const marks = async (roomId: string) =>
  new Map(
    (
      await platform.db.query<{ account_id: string; last_read_at: Date | null }>(
        'select account_id, last_read_at from room_members where room_id = $1',
        [roomId],
      )
    ).rows.map((r) => [r.account_id, r.last_read_at?.toISOString() ?? null]),
  );

/** A room where the owner sent two messages, the member read both and the admin the first. */
async function readRoom(): Promise<RoomCast & { first: string; second: string }> {
  const c = await fx.cast();
  const first = (await fx.send(c.owner, c.roomId, 'one')).id;
  const second = (await fx.send(c.owner, c.roomId, 'two')).id;
  await read(c.admin, c.roomId, first);
  await read(c.member, c.roomId, second);
  await read(c.owner, c.roomId, second);
  return { ...c, first, second };
}

describe('receipts', () => {
  test('list the members whose read mark is at or past the message, with the time the mark moved; never the sender', async () => {
    const c = await readRoom();
    const at = await marks(c.roomId);
    const one = await receipts(c.owner, c.roomId, c.first);
    expectOk(one);
    expect(new Set(one.body.data)).toEqual(
      new Set([
        { accountId: c.admin.id, readAt: at.get(c.admin.id) },
        { accountId: c.member.id, readAt: at.get(c.member.id) },
      ]),
    );
    const two = await receipts(c.admin, c.roomId, c.second);
    expect(two.body.data).toEqual([{ accountId: c.member.id, readAt: at.get(c.member.id) }]);
    // The member's own message: the owner read past it, the member (its sender) is not listed.
    const reply = (await fx.send(c.member, c.roomId, 'three')).id;
    await read(c.owner, c.roomId, reply);
    const own = await receipts(c.member, c.roomId, reply);
    expect(own.body.data.map((r: { accountId: string }) => r.accountId)).toEqual([c.owner.id]);
  });

  test('a non-member gets the 404 of an unknown room; an unknown message is 404 message_not_found', async () => {
    const c = await readRoom();
    expectError(await receipts(c.outsider, c.roomId, c.first), 404, 'room_not_found');
    expectError(await receipts(c.owner, newId(), c.first), 404, 'room_not_found');
    expectError(await receipts(c.owner, c.roomId, newId()), 404, 'message_not_found');
    expectError(await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages/not-a-uuid/receipts`), 400, 'validation_failed');
  });

  test('not sharing hides the account from others and others from it, in receipts and read counts', async () => {
    const c = await readRoom();
    expect((await fx.api(c.member, 'GET', '/me/read-receipts')).body.data).toEqual({ shareReadReceipts: true });
    expect((await share(c.member, false)).body.data).toEqual({ shareReadReceipts: false });
    expect((await fx.api(c.member, 'GET', '/me/read-receipts')).body.data).toEqual({ shareReadReceipts: false });

    const seen = await receipts(c.owner, c.roomId, c.first);
    expect(seen.body.data.map((r: { accountId: string }) => r.accountId)).toEqual([c.admin.id]);
    expect((await page(c.owner, c.roomId)).get(c.first)?.readCount).toBe(1);
    // ...and in return the member sees no one's.
    const mine = await receipts(c.member, c.roomId, c.first);
    expectOk(mine);
    expect(mine.body.data).toEqual([]);
    expect((await page(c.member, c.roomId)).get(c.first)).not.toHaveProperty('readCount');

    await share(c.member, true);
    expect((await receipts(c.owner, c.roomId, c.first)).body.data).toHaveLength(2);
  });
});

describe('readCount', () => {
  test('scroll pages of a room of at most 100 members count readers; a send answers none; larger rooms show none', async () => {
    const c = await readRoom();
    const sent = await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages`, { text: 'fresh' });
    expect(sent.status).toBe(201);
    expect(sent.body.data).not.toHaveProperty('readCount');
    const small = await page(c.member, c.roomId);
    expect([small.get(c.first)?.readCount, small.get(c.second)?.readCount, small.get(sent.body.data.id)?.readCount]).toEqual([2, 1, 0]);

    // The page reads the room's kept member count: past 100 it counts nothing.
    await platform.db.query('update rooms set member_count = 101 where id = $1', [c.roomId]);
    const large = await page(c.member, c.roomId);
    expect(large.get(c.first)).toBeDefined();
    expect(large.get(c.first)).not.toHaveProperty('readCount');
  });
});

describe('message.read', () => {
  const readEvents = (sender: TestAccount, roomId: string) =>
    count(
      platform.db,
      "select count(*) as n from outbox where topic = 'message.read' and payload->>'accountId' = $1 and payload->>'roomId' = $2",
      [sender.id, roomId],
    );

  test('two reads within 2 s give the sender one event, sent when the window ends', async () => {
    const c = await fx.cast();
    const first = (await fx.send(c.owner, c.roomId, 'one')).id;
    const second = (await fx.send(c.owner, c.roomId, 'two')).id;
    await read(c.member, c.roomId, first);
    await read(c.admin, c.roomId, second);
    expect(await count(platform.db, 'select count(*) as n from read_notices where room_id = $1', [c.roomId])).toBe(1);

    const { rows } = await platform.db.query<{ due_at: Date }>('select due_at from read_notices where room_id = $1', [c.roomId]);
    const due = rows[0]!.due_at;
    await sendDueNotices(platform.db, new Date(due.getTime() - 1));
    expect(await readEvents(c.owner, c.roomId)).toBe(0);
    await sendDueNotices(platform.db, due);
    await sendDueNotices(platform.db, due);
    expect(await readEvents(c.owner, c.roomId)).toBe(1);
    const { rows: events } = await platform.db.query(
      "select payload from outbox where topic = 'message.read' and payload->>'roomId' = $1",
      [c.roomId],
    );
    const seq = (await platform.db.query('select seq from messages where id = $1', [second])).rows[0].seq;
    expect(events[0].payload).toEqual({
      audience: { kind: 'accounts', accountIds: [c.owner.id] },
      roomId: c.roomId,
      accountId: c.owner.id,
      lastReadSeq: Number(seq),
    });
    // A read after the window opens a new one.
    const third = (await fx.send(c.owner, c.roomId, 'three')).id;
    await read(c.member, c.roomId, third);
    expect(await count(platform.db, 'select count(*) as n from read_notices where room_id = $1', [c.roomId])).toBe(1);
  });

  test('no notice for reads of a reader or for a sender that does not share', async () => {
    const c = await fx.cast();
    const first = (await fx.send(c.owner, c.roomId, 'one')).id;
    await share(c.member, false);
    await read(c.member, c.roomId, first);
    await share(c.admin, true);
    await share(c.owner, false);
    await read(c.admin, c.roomId, first);
    expect(await count(platform.db, 'select count(*) as n from read_notices where room_id = $1', [c.roomId])).toBe(0);
  });
});
