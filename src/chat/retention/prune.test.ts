// The retention job on a real database, Redis and file media store: messages on both sides of the boundary, the
// API views they leave (history, search, mentions, pins, unread counts), the shorter of room and customer policy,
// and a run cut short (a worker that stopped) resumed by the next with every message expired exactly once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../platform/clock.js';
import { mediaStore } from '../../core/media/store.js';
import { chatFixtures, type RoomCast } from '../../../test/helpers/chat-fixtures.js';
import { count, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import type { ExpungeDeps } from '../expiry/expunge.js';
import { expireMessages, messageExpiryTask } from './prune.js';

const DAY = 86_400_000;
let dataDir: string;
let platform: TestPlatform;
let tenant: TestTenant;
let fx: ReturnType<typeof chatFixtures>;
let deps: ExpungeDeps;
const clock = new ManualClock();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'retention-test-'));
  platform = await startTestPlatform({ services: ['chat'], dataDir });
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
  deps = { sql: platform.db, media: mediaStore(platform.config.media, dataDir), clock };
});
afterAll(async () => {
  await platform?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Moves a message's creation time, as if it had been sent then. */
const sentAt = (messageId: string, at: Date) => platform.db.query('update messages set created_at = $2 where id = $1', [messageId, at]);
const exists = (messageId: string) => count(platform.db, 'select count(*) as n from messages where id = $1', [messageId]);
const roomDays = (c: RoomCast, days: number | null) => fx.api(c.owner, 'PUT', `/rooms/${c.roomId}/retention`, { days });
const expiredIds = async (roomId: string) =>
  (
    await platform.db.query<{ id: string }>(
      "select jsonb_array_elements_text(payload->'messageIds') as id from outbox where topic = 'message.expired' and payload->>'roomId' = $1",
      [roomId],
    )
  ).rows.map((r) => r.id);

describe('the retention job', () => {
  test("a room's expired messages disappear from history, search, mentions, pins and unread counts; the newer stay", async () => {
    const c = await fx.cast();
    const old = await fx.send(c.owner, c.roomId, `zebracrossing <@${c.member.id}>`);
    const edge = await fx.send(c.owner, c.roomId, 'zebracrossing at the edge');
    const fresh = await fx.send(c.owner, c.roomId, 'zebracrossing fresh');
    expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${old.id}/pin`));
    const now = new Date();
    clock.set(now);
    await sentAt(old.id, new Date(now.getTime() - 7 * DAY - 1000));
    await sentAt(edge.id, new Date(now.getTime() - 7 * DAY + 1000));
    expectOk(await roomDays(c, 7));
    const unread = async () => {
      const rooms = await fx.api(c.member, 'GET', '/rooms');
      return (rooms.body.data as Array<{ id: string; unreadCount: number }>).find((r) => r.id === c.roomId)!.unreadCount;
    };
    expect(await unread()).toBe(3);

    expect(await expireMessages(deps)).toBe(1);

    expect(await exists(old.id)).toBe(0);
    expect(await exists(edge.id)).toBe(1);
    const history = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages`);
    expect((history.body.data as Array<{ id: string }>).map((m) => m.id)).toEqual([edge.id, fresh.id]);
    const found = await fx.api(c.member, 'GET', `/search/messages?q=zebracrossing&roomId=${c.roomId}`);
    expect((found.body.data as Array<{ message: { id: string } }>).map((h) => h.message.id).sort()).toEqual([edge.id, fresh.id].sort());
    const mentions = await fx.api(c.member, 'GET', '/me/mentions');
    expect(JSON.stringify(mentions.body.data)).not.toContain(old.id);
    const pinned = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/pinned`);
    expect(pinned.body.data).toEqual([]);
    expect(await unread()).toBe(2);
    expect(await expiredIds(c.roomId)).toEqual([old.id]);

    // the edge passes the boundary two seconds later
    clock.set(new Date(now.getTime() + 2000));
    expect(await expireMessages(deps)).toBe(1);
    expect(await exists(edge.id)).toBe(0);
    expect(await exists(fresh.id)).toBe(1);
  });

  test("the customer's default covers its rooms, a room's own shorter one wins, rooms without a policy keep everything", async () => {
    const other = await platform.tenant();
    const otherFx = chatFixtures(platform, other);
    const [a, b, free] = [await fx.cast(), await fx.cast(), await otherFx.cast()];
    const now = new Date();
    clock.set(now);
    const at = async (c: RoomCast, f: typeof fx, daysAgo: number) => {
      const m = await f.send(c.owner, c.roomId, `${daysAgo} days ago`);
      await sentAt(m.id, new Date(now.getTime() - daysAgo * DAY));
      return m.id;
    };
    const [a5, a20] = [await at(a, fx, 5), await at(a, fx, 20)];
    const [b5, b20] = [await at(b, fx, 5), await at(b, fx, 20)];
    const [f5, f20] = [await at(free, otherFx, 5), await at(free, otherFx, 20)];
    const admin = await platform.adminToken();
    const setDefault = (days: number | null) =>
      call(
        platform.chatUrl,
        'PUT',
        `/api/v1/admin/retention?moduleCode=${tenant.moduleCode}&customerAccountId=${encodeURIComponent(tenant.customer)}`,
        {
          token: admin,
          body: { days },
        },
      );
    expectOk(await setDefault(10));
    expectOk(await roomDays(b, 3));
    expect(await expireMessages(deps)).toBe(3);
    expect([await exists(a5), await exists(a20), await exists(b5), await exists(b20), await exists(f5), await exists(f20)]).toEqual([
      1, 0, 0, 0, 1, 1,
    ]);
    expectOk(await setDefault(null));
  });

  test('a run cut short is resumed by the next: every message expires once, with one event naming it', async () => {
    const c = await fx.cast();
    const now = new Date();
    clock.set(now);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = await fx.send(c.owner, c.roomId, `old ${i}`);
      await sentAt(m.id, new Date(now.getTime() - 2 * DAY - i));
      ids.push(m.id);
    }
    expectOk(await roomDays(c, 1));
    // a budget of 0: one batch of two, as a worker that stopped after its first batch
    expect(await expireMessages(deps, 0, 2)).toBe(2);
    expect(await count(platform.db, 'select count(*) as n from messages where id = any($1::uuid[])', [ids])).toBe(3);
    // the task as the maintenance worker runs it, after a restart: the rest, then nothing
    const task = messageExpiryTask(deps);
    expect(task).toMatchObject({ scheduler: 'message-expiry', job: 'expire-messages' });
    expect(await task.run(new Date())).toBe(3);
    expect(await task.run(new Date())).toBe(0);
    expect((await expiredIds(c.roomId)).sort()).toEqual([...ids].sort());
  });
});
