// Reminders over the real listener on a database of their own, with an injected clock: the tests move the clock
// and run the sweep (what the periodic sweep job does). The DST test walks "every weekday at 09:00 Europe/Berlin"
// over the EU spring change (Sunday March 29, 2026).
import { ManualClock } from '../../platform/clock.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import {
  call,
  isolatedInfra,
  startTestPlatform,
  type TestAccount,
  type TestPlatform,
  type TestTenant,
} from '../../../test/support/platform.js';
import { reminderBotId } from '../rooms/reminder-bot.js';

const start = new Date('2026-03-26T06:00:00.000Z'); // Thursday, 07:00 in Berlin
const clock = new ManualClock(start);
const HOUR = 3_600_000;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let tenant: TestTenant;

// A database of its own is created and migrated first: slow on a busy machine.
beforeAll(async () => {
  infra = await isolatedInfra();
  platform = await startTestPlatform({ services: ['chat'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl }, clock);
  tenant = await platform.tenant();
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  await infra?.drop();
});
beforeEach(() => clock.set(start));

const api = (who: TestAccount, method: string, path: string, body?: unknown) =>
  call(platform.chatUrl, method, `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });
const at = (msFromStart: number) => new Date(start.getTime() + msFromStart).toISOString();
const weekdaysBerlin = { frequency: 'WEEKDAYS', time: '09:00', timeZone: 'Europe/Berlin' };

async function botMessages(roomId: string): Promise<Array<{ text: string; sender_id: string; created_at: Date }>> {
  const { rows } = await platform.db.query('select text, sender_id, created_at from messages where room_id = $1 order by seq', [roomId]);
  return rows;
}

describe('create, read, list', () => {
  test('one-time: 201, the reminder room is made now, GET and the list show it; others get 404', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const res = await api(alice, 'POST', '/reminders', { text: 'call the bank', remindAt: at(2 * HOUR) });
    expectOk(res, 201);
    const r = res.body.data;
    const room = (await api(alice, 'POST', '/rooms/reminders')).body.data;
    expect(r).toEqual({
      id: expect.any(String),
      ownerId: alice.id,
      roomId: room.id,
      text: 'call the bank',
      kind: 'ONE_TIME',
      remindAt: at(2 * HOUR),
      recurrence: null,
      status: 'ACTIVE',
      nextFireAt: at(2 * HOUR),
      lastFiredAt: null,
      fireCount: 0,
      createdAt: start.toISOString(),
      updatedAt: start.toISOString(),
    });
    expect(res.headers.get('location')).toBe(`/api/v1/reminders/${r.id}`);
    expect((await api(alice, 'GET', `/reminders/${r.id}`)).body.data).toEqual(r);
    expect((await api(alice, 'GET', '/reminders')).body.data).toEqual([r]);
    expectError(await api(bob, 'GET', `/reminders/${r.id}`), 404, 'reminder_not_found');
    expectError(await api(bob, 'PATCH', `/reminders/${r.id}`, { text: 'mine' }), 404, 'reminder_not_found');
    expectError(await api(bob, 'DELETE', `/reminders/${r.id}`), 404, 'reminder_not_found');
    expect((await api(bob, 'GET', '/reminders')).body.data).toEqual([]);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'reminder.created' and payload->>'reminderId' = $1", [r.id]),
    ).toBe(1);
  });

  test('recurring: the rule is stored canonically and nextFireAt is its next occurrence', async () => {
    const alice = await tenant.account();
    const res = await api(alice, 'POST', '/reminders', { text: 'stand-up', recurrence: { ...weekdaysBerlin, timeZone: 'europe/berlin' } });
    expectOk(res, 201);
    expect(res.body.data).toMatchObject({
      kind: 'RECURRING',
      remindAt: null,
      recurrence: weekdaysBerlin,
      nextFireAt: '2026-03-26T08:00:00.000Z',
    });
  });

  test('bad input is 400 and stores nothing', async () => {
    const alice = await tenant.account();
    const bad: Array<[unknown, string]> = [
      [{ text: 'x' }, 'body.remindAt'],
      [{ text: 'x', remindAt: at(HOUR), recurrence: weekdaysBerlin }, 'body.recurrence'],
      [{ text: 'x', remindAt: at(0) }, 'body.remindAt'],
      [{ text: 'x', remindAt: at(-HOUR) }, 'body.remindAt'],
      [{ text: 'x', recurrence: { ...weekdaysBerlin, timeZone: 'Mars/Olympus' } }, 'body.recurrence.timeZone'],
      [{ text: 'x', recurrence: { ...weekdaysBerlin, time: '24:00' } }, 'body.recurrence.time'],
      [{ text: 'x', recurrence: { frequency: 'WEEKLY', time: '09:00', timeZone: 'UTC' } }, 'body.recurrence.daysOfWeek'],
      [{ text: 'x', recurrence: { frequency: 'MONTHLY', time: '09:00', timeZone: 'UTC', dayOfMonth: 32 } }, 'body.recurrence.dayOfMonth'],
      [{ text: '', remindAt: at(HOUR) }, 'body.text'],
    ];
    for (const [body, location] of bad) expectError(await api(alice, 'POST', '/reminders', body), 400, 'validation_failed', location);
    expect(await count(platform.db, 'select count(*) as n from reminders where owner_id = $1', [alice.id])).toBe(0);
    expectError(await api(alice, 'GET', '/reminders?cursor=nope'), 400, 'invalid_cursor');
  });

  test('the list shows ACTIVE reminders only, soonest first, in pages', async () => {
    const alice = await tenant.account();
    const ids: string[] = [];
    for (let i = 4; i >= 1; i--)
      ids.unshift((await api(alice, 'POST', '/reminders', { text: `r${i}`, remindAt: at(i * HOUR) })).body.data.id);
    expectOk(await api(alice, 'DELETE', `/reminders/${ids[2]}`));
    clock.advance(HOUR);
    await platform.sweepTime(); // r1 fires and is DONE
    const page1 = await api(alice, 'GET', '/reminders?limit=1');
    expect(page1.body.data.map((r: { text: string }) => r.text)).toEqual(['r2']);
    const page2 = await api(alice, 'GET', `/reminders?limit=5&cursor=${page1.body.meta.nextCursor}`);
    expect(page2.body.data.map((r: { text: string }) => r.text)).toEqual(['r4']);
    expect((await api(alice, 'GET', `/reminders/${ids[0]}`)).body.data).toMatchObject({ status: 'DONE', nextFireAt: null, fireCount: 1 });
  });
});

describe('PATCH and DELETE', () => {
  test('PATCH changes text and schedule while ACTIVE (remindAt makes it one-time, recurrence recurring); 409 once DONE', async () => {
    const alice = await tenant.account();
    const r = (await api(alice, 'POST', '/reminders', { text: 'water plants', remindAt: at(HOUR) })).body.data;
    const recurring = await api(alice, 'PATCH', `/reminders/${r.id}`, { recurrence: weekdaysBerlin });
    expectOk(recurring);
    expect(recurring.body.data).toMatchObject({
      kind: 'RECURRING',
      remindAt: null,
      recurrence: weekdaysBerlin,
      nextFireAt: '2026-03-26T08:00:00.000Z',
    });
    const back = await api(alice, 'PATCH', `/reminders/${r.id}`, { text: 'water the plants', remindAt: at(3 * HOUR) });
    expect(back.body.data).toMatchObject({
      kind: 'ONE_TIME',
      text: 'water the plants',
      recurrence: null,
      remindAt: at(3 * HOUR),
      nextFireAt: at(3 * HOUR),
    });
    expectOk(await api(alice, 'PATCH', `/reminders/${r.id}`, { text: 'water the plants' }));
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'reminder.updated' and payload->>'reminderId' = $1", [r.id]),
    ).toBe(2);
    expectError(
      await api(alice, 'PATCH', `/reminders/${r.id}`, { remindAt: at(HOUR), recurrence: weekdaysBerlin }),
      400,
      'validation_failed',
      'body.recurrence',
    );
    clock.advance(3 * HOUR);
    await platform.sweepTime();
    expectError(await api(alice, 'PATCH', `/reminders/${r.id}`, { text: 'again' }), 409, 'reminder_not_active');
    expectError(await api(alice, 'DELETE', `/reminders/${r.id}`), 409, 'reminder_not_active');
  });

  test('DELETE cancels: it never fires, leaves the list and answers 404', async () => {
    const alice = await tenant.account();
    const r = (await api(alice, 'POST', '/reminders', { text: 'never', recurrence: weekdaysBerlin })).body.data;
    const del = await api(alice, 'DELETE', `/reminders/${r.id}`);
    expect(del.body.data).toEqual({ id: r.id, status: 'CANCELLED' });
    expectError(await api(alice, 'GET', `/reminders/${r.id}`), 404, 'reminder_not_found');
    expectError(await api(alice, 'DELETE', `/reminders/${r.id}`), 404, 'reminder_not_found');
    expect((await api(alice, 'GET', '/reminders')).body.data).toEqual([]);
    clock.advance(48 * HOUR);
    await platform.sweepTime();
    expect(await botMessages(r.roomId)).toEqual([]);
  });
});

describe('firing', () => {
  test('a one-time reminder: the bot posts it in the reminder room once, then it is DONE', async () => {
    const alice = await tenant.account();
    const r = (await api(alice, 'POST', '/reminders', { text: 'leave for the airport', remindAt: at(HOUR) })).body.data;
    clock.advance(HOUR - 1);
    await platform.sweepTime();
    expect(await botMessages(r.roomId)).toEqual([]);
    clock.advance(1);
    expect((await platform.sweepTime()).reminders).toBe(1);
    expect((await platform.sweepTime()).reminders).toBe(0);
    const bot = reminderBotId(tenant.moduleCode, tenant.customer);
    expect(await botMessages(r.roomId)).toEqual([{ text: 'leave for the airport', sender_id: bot, created_at: new Date(at(HOUR)) }]);
    expect((await api(alice, 'GET', `/reminders/${r.id}`)).body.data).toMatchObject({
      status: 'DONE',
      nextFireAt: null,
      lastFiredAt: at(HOUR),
      fireCount: 1,
    });
    // Alice reads it in her room like any message.
    const page = await api(alice, 'GET', `/rooms/${r.roomId}/messages`);
    expect(page.body.data.map((m: { text: string; senderId: string }) => [m.text, m.senderId])).toEqual([['leave for the airport', bot]]);
    const { rows } = await platform.db.query("select payload from outbox where topic = 'reminder.fired' and payload->>'reminderId' = $1", [
      r.id,
    ]);
    expect(rows.map((x) => x.payload)).toEqual([
      expect.objectContaining({
        status: 'DONE',
        occurrenceAt: expect.stringMatching(/^2026-03-26T07:00:00/),
        messageId: expect.any(String),
        skippedReason: null,
      }),
    ]);
  });

  test('every weekday at 09:00 Europe/Berlin posts at 09:00 local across the daylight-saving change', async () => {
    const alice = await tenant.account();
    const r = (await api(alice, 'POST', '/reminders', { text: 'stand-up', recurrence: weekdaysBerlin })).body.data;
    const fired: string[] = [];
    // Walk six days an hour at a time, sweeping as the periodic job would.
    for (let h = 0; h < 6 * 24; h++) {
      clock.advance(HOUR);
      await platform.sweepTime();
    }
    for (const m of await botMessages(r.roomId)) fired.push(m.created_at.toISOString());
    // Thu, Fri at 08:00Z (CET); the weekend nothing; Mon, Tue at 07:00Z (CEST).
    expect(fired).toEqual(['2026-03-26T08:00:00.000Z', '2026-03-27T08:00:00.000Z', '2026-03-30T07:00:00.000Z', '2026-03-31T07:00:00.000Z']);
    expect((await api(alice, 'GET', `/reminders/${r.id}`)).body.data).toMatchObject({
      status: 'ACTIVE',
      fireCount: 4,
      nextFireAt: '2026-04-01T07:00:00.000Z',
    });
    expect(
      await count(platform.db, 'select count(*) as n from reminder_occurrences where reminder_id = $1 and message_id is not null', [r.id]),
    ).toBe(4);
  });

  test('missed occurrences post once, and the reminder continues from the next one after now', async () => {
    const alice = await tenant.account();
    const r = (
      await api(alice, 'POST', '/reminders', { text: 'daily', recurrence: { frequency: 'DAILY', time: '12:00', timeZone: 'UTC' } })
    ).body.data;
    clock.advance(3 * 24 * HOUR); // Sunday 06:00Z: Thu, Fri and Sat noon were missed
    await platform.sweepTime();
    expect((await botMessages(r.roomId)).map((m) => m.text)).toEqual(['daily']);
    expect((await api(alice, 'GET', `/reminders/${r.id}`)).body.data).toMatchObject({
      nextFireAt: '2026-03-29T12:00:00.000Z',
      fireCount: 1,
    });
  });

  test('a deactivated owner is not reminded; the occurrence is recorded as skipped', async () => {
    const alice = await tenant.account();
    const r = (await api(alice, 'POST', '/reminders', { text: 'skipped', remindAt: at(HOUR) })).body.data;
    await platform.db.query(`update accounts set status = 'DEACTIVATED' where id = $1`, [alice.id]);
    clock.advance(HOUR);
    await platform.sweepTime();
    expect(await botMessages(r.roomId)).toEqual([]);
    const { rows } = await platform.db.query('select skipped_reason, message_id from reminder_occurrences where reminder_id = $1', [r.id]);
    expect(rows).toEqual([{ skipped_reason: 'OWNER_INACTIVE', message_id: null }]);
    expect(await count(platform.db, "select count(*) as n from reminders where id = $1 and status = 'DONE'", [r.id])).toBe(1);
  });

  test('two platforms sweeping at the same moment post each occurrence exactly once', async () => {
    const second = await startTestPlatform({ services: ['chat'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl }, clock);
    try {
      const owners = await Promise.all(Array.from({ length: 40 }, () => tenant.account()));
      const ids: string[] = [];
      for (const o of owners) {
        ids.push((await api(o, 'POST', '/reminders', { text: `once ${o.id}`, remindAt: at(HOUR) })).body.data.id);
        ids.push(
          (
            await api(o, 'POST', '/reminders', {
              text: `daily ${o.id}`,
              recurrence: { frequency: 'DAILY', time: '07:00', timeZone: 'UTC' },
            })
          ).body.data.id,
        );
      }
      clock.advance(HOUR);
      const sweeps = await Promise.all([platform.sweepTime(), second.sweepTime(), platform.sweepTime(), second.sweepTime()]);
      expect(sweeps.reduce((n, s) => n + s.reminders, 0)).toBe(80);
      expect(await count(platform.db, "select count(*) as n from messages where text like 'once %' or text like 'daily %'")).toBe(80);
      expect(await count(platform.db, 'select count(*) as n from reminder_occurrences where reminder_id = any($1::uuid[])', [ids])).toBe(
        80,
      );
      clock.advance(24 * HOUR);
      await Promise.all([platform.sweepTime(), second.sweepTime()]);
      expect(await count(platform.db, "select count(*) as n from messages where text like 'daily %'")).toBe(80);
    } finally {
      await second.stop();
    }
  });
});
