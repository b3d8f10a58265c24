// Scheduled messages over the real listener on a database of their own, with an injected clock: the tests move
// the clock and run the sweep (what the periodic sweep job does), never sleep.
import { ManualClock } from '../../platform/clock.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import {
  call,
  isolatedInfra,
  startTestPlatform,
  type TestAccount,
  type TestPlatform,
  type TestTenant,
} from '../../../test/support/platform.js';
import { alternate } from '../../../test/helpers/data.js';

const start = new Date('2026-06-01T08:00:00.000Z');
const clock = new ManualClock(start);
const HOUR = 3_600_000;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let tenant: TestTenant;
let fx: ReturnType<typeof chatFixtures>;

// A database of its own is created and migrated first: slow on a busy machine.
beforeAll(async () => {
  infra = await isolatedInfra();
  // No workers: only the test's sweeps fire, so every assertion sees a settled state.
  platform = await startTestPlatform({ services: ['chat'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl }, clock);
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  await infra?.drop();
});
beforeEach(() => clock.set(start));

const at = (msFromStart: number) => new Date(start.getTime() + msFromStart).toISOString();
const schedule = (who: TestAccount, roomId: string, body: Record<string, unknown>) =>
  fx.api(who, 'POST', `/rooms/${roomId}/messages/scheduled`, body);
const scheduledRows = (senderId: string) =>
  count(platform.db, 'select count(*) as n from scheduled_messages where sender_id = $1', [senderId]);

describe('create, read, list', () => {
  test('201 with Location; GET and the list show it PENDING; the creator only', async () => {
    const { roomId, owner, member } = await fx.cast();
    const res = await schedule(owner, roomId, { text: 'stand-up in 5', sendAt: at(HOUR) });
    expectOk(res, 201);
    const sm = res.body.data;
    expect(sm).toEqual({
      id: expect.any(String),
      roomId,
      senderId: owner.id,
      text: 'stand-up in 5',
      threadRootId: null,
      sendAt: at(HOUR),
      status: 'PENDING',
      messageId: null,
      failureReason: null,
      firedAt: null,
      createdAt: start.toISOString(),
      updatedAt: start.toISOString(),
    });
    expect(res.headers.get('location')).toBe(`/api/v1/messages/scheduled/${sm.id}`);
    expect((await fx.api(owner, 'GET', `/messages/scheduled/${sm.id}`)).body.data).toEqual(sm);
    expect((await fx.api(owner, 'GET', '/messages/scheduled')).body.data.map((s: { id: string }) => s.id)).toContain(sm.id);
    // Another member of the room learns nothing of it.
    expectError(await fx.api(member, 'GET', `/messages/scheduled/${sm.id}`), 404, 'scheduled_message_not_found');
    expectError(await fx.api(member, 'PATCH', `/messages/scheduled/${sm.id}`, { text: 'mine now' }), 404, 'scheduled_message_not_found');
    expectError(await fx.api(member, 'DELETE', `/messages/scheduled/${sm.id}`), 404, 'scheduled_message_not_found');
    expect((await fx.api(member, 'GET', '/messages/scheduled')).body.data).toEqual([]);
    expect(await fx.events('scheduled_message.created', { roomId })).toBe(1);
  });

  test('the list pages by sendAt, filters by room and status', async () => {
    const { roomId, owner } = await fx.cast();
    const other = await fx.room(owner);
    for (let i = 5; i >= 1; i--) expectOk(await schedule(owner, alternate(i, other, roomId), { text: `m${i}`, sendAt: at(i * HOUR) }), 201);
    const first = await fx.api(owner, 'GET', '/messages/scheduled?limit=2');
    expect(first.body.data.map((s: { text: string }) => s.text)).toEqual(['m1', 'm2']);
    expect(first.body.meta.hasMore).toBe(true);
    const rest = await fx.api(owner, 'GET', `/messages/scheduled?limit=10&cursor=${first.body.meta.nextCursor}`);
    expect(rest.body.data.map((s: { text: string }) => s.text)).toEqual(['m3', 'm4', 'm5']);
    expect(rest.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    const inRoom = await fx.api(owner, 'GET', `/messages/scheduled?roomId=${roomId}`);
    expect(inRoom.body.data.map((s: { text: string }) => s.text)).toEqual(['m1', 'm3', 'm5']);
    expect((await fx.api(owner, 'GET', '/messages/scheduled?status=SENT')).body.data).toEqual([]);
    expectError(await fx.api(owner, 'GET', '/messages/scheduled?cursor=bogus'), 400, 'invalid_cursor');
  });

  test('bad input is 400 and stores nothing: sendAt now or past, too far, missing text; non-member 404', async () => {
    const { roomId, owner, outsider } = await fx.cast();
    const before = await scheduledRows(owner.id);
    expectError(await schedule(owner, roomId, { text: 'x', sendAt: at(0) }), 400, 'validation_failed', 'body.sendAt');
    expectError(await schedule(owner, roomId, { text: 'x', sendAt: at(-1000) }), 400, 'validation_failed', 'body.sendAt');
    expectError(await schedule(owner, roomId, { text: 'x', sendAt: at(6 * 366 * 24 * HOUR) }), 400, 'validation_failed', 'body.sendAt');
    expectError(await schedule(owner, roomId, { sendAt: at(HOUR) }), 400, 'validation_failed');
    expectError(await schedule(owner, roomId, { text: '', sendAt: at(HOUR) }), 400, 'validation_failed');
    expectError(await schedule(owner, roomId, { text: 'x', sendAt: 'tomorrow' }), 400, 'validation_failed');
    expect(await scheduledRows(owner.id)).toBe(before);
    expectError(await schedule(outsider, roomId, { text: 'x', sendAt: at(HOUR) }), 404, 'room_not_found');
    expect(await scheduledRows(outsider.id)).toBe(0);
  });

  test('scheduling counts against the send rate limit when requested', async () => {
    const limited = await startTestPlatform(
      { services: ['chat'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, sendRateLimitPerMinute: 2 },
      clock,
    );
    try {
      const { roomId, owner } = await fx.cast();
      const post = (body: unknown) =>
        call(limited.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages/scheduled`, { token: owner.token, body });
      expectOk(await post({ text: 'one', sendAt: at(HOUR) }), 201);
      expectOk(await post({ text: 'two', sendAt: at(HOUR) }), 201);
      expectError(await post({ text: 'three', sendAt: at(HOUR) }), 429, 'rate_limited');
      expect(await scheduledRows(owner.id)).toBe(2);
    } finally {
      await limited.stop();
    }
  });

  test('threadRootId: a reply names its root; a message of another room is 404; a recalled root 409', async () => {
    const { roomId, owner, member } = await fx.cast();
    const root = await fx.send(owner, roomId, 'root');
    const reply = expectReply(await fx.api(member, 'POST', `/rooms/${roomId}/messages`, { text: 'reply', threadRootId: root.id }));
    const sm = await schedule(member, roomId, { text: 'later reply', sendAt: at(HOUR), threadRootId: reply });
    expectOk(sm, 201);
    expect(sm.body.data.threadRootId).toBe(root.id);
    const elsewhere = await fx.send(owner, await fx.room(owner, [member]), 'elsewhere');
    expectError(await schedule(member, roomId, { text: 'x', sendAt: at(HOUR), threadRootId: elsewhere.id }), 404, 'message_not_found');
    expectOk(await fx.api(owner, 'POST', `/rooms/${roomId}/messages/${root.id}/recall`));
    expectError(await schedule(member, roomId, { text: 'x', sendAt: at(HOUR), threadRootId: root.id }), 409, 'message_recalled');
  });
});

function expectReply(res: { status: number; body: any }): string {
  if (res.status !== 201) throw new Error(`reply: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

describe('PATCH and DELETE', () => {
  test('PATCH changes text and time while PENDING; an unchanged PATCH emits nothing; past sendAt 400', async () => {
    const { roomId, owner } = await fx.cast();
    const sm = (await schedule(owner, roomId, { text: 'draft', sendAt: at(HOUR) })).body.data;
    clock.advance(1000);
    const res = await fx.api(owner, 'PATCH', `/messages/scheduled/${sm.id}`, { text: 'final', sendAt: at(2 * HOUR) });
    expectOk(res);
    expect(res.body.data).toMatchObject({ text: 'final', sendAt: at(2 * HOUR), status: 'PENDING', updatedAt: at(1000) });
    expectOk(await fx.api(owner, 'PATCH', `/messages/scheduled/${sm.id}`, { text: 'final' }));
    expectOk(await fx.api(owner, 'PATCH', `/messages/scheduled/${sm.id}`, {}));
    expect(
      await count(
        platform.db,
        "select count(*) as n from outbox where topic = 'scheduled_message.updated' and payload->>'scheduledMessageId' = $1",
        [sm.id],
      ),
    ).toBe(1);
    expectError(
      await fx.api(owner, 'PATCH', `/messages/scheduled/${sm.id}`, { sendAt: at(-HOUR) }),
      400,
      'validation_failed',
      'body.sendAt',
    );
    expectError(await fx.api(owner, 'PATCH', `/messages/scheduled/${sm.id}`, { text: 'x', extra: 1 }), 400, 'validation_failed');
    expect((await fx.api(owner, 'GET', `/messages/scheduled/${sm.id}`)).body.data).toMatchObject({ text: 'final', sendAt: at(2 * HOUR) });
    // The old time finds nothing due; the new one fires.
    clock.set(new Date(at(HOUR + 1)));
    await platform.sweepTime();
    expect((await fx.api(owner, 'GET', `/messages/scheduled/${sm.id}`)).body.data.status).toBe('PENDING');
    clock.set(new Date(at(2 * HOUR)));
    await platform.sweepTime();
    const sent = (await fx.api(owner, 'GET', `/messages/scheduled/${sm.id}`)).body.data;
    expect(sent.status).toBe('SENT');
    expect((await fx.api(owner, 'GET', `/rooms/${roomId}/messages/${sent.messageId}`)).body.data.text).toBe('final');
  });

  test('DELETE cancels: never sent, 404 from then on, not listed; a SENT one is 409', async () => {
    const { roomId, owner } = await fx.cast();
    const sm = (await schedule(owner, roomId, { text: 'never', sendAt: at(HOUR) })).body.data;
    const del = await fx.api(owner, 'DELETE', `/messages/scheduled/${sm.id}`);
    expectOk(del);
    expect(del.body.data).toEqual({ id: sm.id, status: 'CANCELLED' });
    expectError(await fx.api(owner, 'GET', `/messages/scheduled/${sm.id}`), 404, 'scheduled_message_not_found');
    expectError(await fx.api(owner, 'DELETE', `/messages/scheduled/${sm.id}`), 404, 'scheduled_message_not_found');
    expectError(await fx.api(owner, 'PATCH', `/messages/scheduled/${sm.id}`, { text: 'y' }), 404, 'scheduled_message_not_found');
    clock.advance(2 * HOUR);
    await platform.sweepTime();
    expect(await count(platform.db, "select count(*) as n from messages where room_id = $1 and text = 'never'", [roomId])).toBe(0);
    expect(await count(platform.db, "select count(*) as n from scheduled_messages where id = $1 and status = 'CANCELLED'", [sm.id])).toBe(
      1,
    );
    expect(
      await count(
        platform.db,
        "select count(*) as n from outbox where topic = 'scheduled_message.cancelled' and payload->>'scheduledMessageId' = $1",
        [sm.id],
      ),
    ).toBe(1);

    const later = (await schedule(owner, roomId, { text: 'sent', sendAt: new Date(clock.now().getTime() + 1000).toISOString() })).body.data;
    clock.advance(1000);
    await platform.sweepTime();
    expectError(await fx.api(owner, 'DELETE', `/messages/scheduled/${later.id}`), 409, 'scheduled_message_not_pending');
    expectError(
      await fx.api(owner, 'PATCH', `/messages/scheduled/${later.id}`, { text: 'too late' }),
      409,
      'scheduled_message_not_pending',
    );
    expect((await fx.api(owner, 'GET', `/messages/scheduled/${later.id}`)).body.data).toMatchObject({ status: 'SENT', text: 'sent' });
  });
});

describe('firing', () => {
  test('at sendAt the message is posted as its sender, once: PENDING to SENT with the message id', async () => {
    const { roomId, owner, member } = await fx.cast();
    const sm = (await schedule(member, roomId, { text: 'good morning', sendAt: at(HOUR) })).body.data;
    clock.advance(HOUR - 1);
    expect(await platform.sweepTime()).toMatchObject({ scheduled: 0 });
    clock.advance(1);
    expect(await platform.sweepTime()).toMatchObject({ scheduled: 1 });
    expect(await platform.sweepTime()).toMatchObject({ scheduled: 0 });
    const sent = (await fx.api(member, 'GET', `/messages/scheduled/${sm.id}`)).body.data;
    expect(sent).toMatchObject({ status: 'SENT', messageId: expect.any(String), failureReason: null, firedAt: at(HOUR) });
    const message = (await fx.api(owner, 'GET', `/rooms/${roomId}/messages/${sent.messageId}`)).body.data;
    expect(message).toMatchObject({ senderId: member.id, text: 'good morning', createdAt: at(HOUR), threadRootId: null });
    expect(await count(platform.db, "select count(*) as n from messages where room_id = $1 and text = 'good morning'", [roomId])).toBe(1);
    expect(await fx.events('message.created', { messageId: sent.messageId })).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'scheduled_message.sent' and payload->>'messageId' = $1", [
        sent.messageId,
      ]),
    ).toBe(1);
    // The room's sequence moved by one and the sender's list moved it to SENT.
    expect((await fx.api(member, 'GET', '/messages/scheduled?status=SENT')).body.data.map((s: { id: string }) => s.id)).toContain(sm.id);
  });

  test('a scheduled reply joins the thread', async () => {
    const { roomId, owner, member } = await fx.cast();
    const root = await fx.send(owner, roomId, 'root');
    const sm = (await schedule(member, roomId, { text: 'threaded', sendAt: at(HOUR), threadRootId: root.id })).body.data;
    clock.advance(HOUR);
    await platform.sweepTime();
    const sent = (await fx.api(member, 'GET', `/messages/scheduled/${sm.id}`)).body.data;
    expect(sent.status).toBe('SENT');
    const replies = await fx.api(owner, 'GET', `/rooms/${roomId}/threads/${root.id}`);
    expect(replies.body.data.map((m: { id: string }) => m.id)).toEqual([sent.messageId]);
  });

  test('FAILED with a reason when the sender left, was deactivated, the room was deleted or the root recalled', async () => {
    const cast = await fx.cast();
    const left = (await schedule(cast.member, cast.roomId, { text: 'left', sendAt: at(HOUR) })).body.data;
    expectOk(await fx.api(cast.member, 'POST', `/rooms/${cast.roomId}/leave`));

    const cast2 = await fx.cast();
    const inactive = (await schedule(cast2.member, cast2.roomId, { text: 'inactive', sendAt: at(HOUR) })).body.data;
    await platform.db.query(`update accounts set status = 'DEACTIVATED' where id = $1`, [cast2.member.id]);

    const cast3 = await fx.cast();
    const deleted = (await schedule(cast3.member, cast3.roomId, { text: 'deleted', sendAt: at(HOUR) })).body.data;
    expectOk(await fx.api(cast3.owner, 'DELETE', `/rooms/${cast3.roomId}`));

    const cast4 = await fx.cast();
    const root = await fx.send(cast4.owner, cast4.roomId, 'root');
    const orphan = (await schedule(cast4.member, cast4.roomId, { text: 'orphan', sendAt: at(HOUR), threadRootId: root.id })).body.data;
    expectOk(await fx.api(cast4.owner, 'POST', `/rooms/${cast4.roomId}/messages/${root.id}/recall`));
    const seqBefore = (await platform.db.query('select last_seq from rooms where id = $1', [cast4.roomId])).rows[0].last_seq;

    clock.advance(HOUR);
    await platform.sweepTime();
    const reasons = await platform.db.query<{ id: string; status: string; failure_reason: string; message_id: string | null }>(
      'select id, status, failure_reason, message_id from scheduled_messages where id = any($1::uuid[])',
      [[left.id, inactive.id, deleted.id, orphan.id]],
    );
    const byId = Object.fromEntries(reasons.rows.map((r) => [r.id, r]));
    expect(byId[left.id]).toMatchObject({ status: 'FAILED', failure_reason: 'SENDER_NOT_MEMBER', message_id: null });
    expect(byId[inactive.id]).toMatchObject({ status: 'FAILED', failure_reason: 'SENDER_INACTIVE', message_id: null });
    expect(byId[deleted.id]).toMatchObject({ status: 'FAILED', failure_reason: 'ROOM_DELETED', message_id: null });
    expect(byId[orphan.id]).toMatchObject({ status: 'FAILED', failure_reason: 'THREAD_ROOT_RECALLED', message_id: null });
    expect(await count(platform.db, "select count(*) as n from messages where text in ('left', 'inactive', 'deleted', 'orphan')")).toBe(0);
    // The reply's sequence number was given back.
    expect((await platform.db.query('select last_seq from rooms where id = $1', [cast4.roomId])).rows[0].last_seq).toBe(seqBefore);
    expect((await fx.api(cast.member, 'GET', `/messages/scheduled/${left.id}`)).body.data).toMatchObject({
      status: 'FAILED',
      failureReason: 'SENDER_NOT_MEMBER',
    });
    expect(
      await count(
        platform.db,
        "select count(*) as n from outbox where topic = 'scheduled_message.failed' and payload->>'scheduledMessageId' = any($1::text[])",
        [[left.id, inactive.id, deleted.id, orphan.id]],
      ),
    ).toBe(4);
  });

  test('two platforms sweeping at the same moment send each message exactly once', async () => {
    const second = await startTestPlatform({ services: ['chat'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl }, clock);
    try {
      const rooms = await Promise.all(Array.from({ length: 6 }, () => fx.cast()));
      const total = 300;
      const due = new Date(start.getTime() + HOUR);
      // Rows straight into the table (the API path is tested above): many due at once, spread over rooms.
      await platform.db.query(
        `insert into scheduled_messages (id, room_id, sender_id, text, send_at, status, created_at, updated_at)
         select gen_random_uuid(), (r->>'roomId')::uuid, (r->>'senderId')::uuid, 'race ' || g, $2, 'PENDING', $3, $3
           from generate_series(1, $4::int) g, lateral (select $1::jsonb -> (g % jsonb_array_length($1::jsonb)) as r) pick`,
        [JSON.stringify(rooms.map((c) => ({ roomId: c.roomId, senderId: c.member.id }))), due, start, total],
      );
      clock.set(due);
      const results = await Promise.all([platform.sweepTime(), second.sweepTime(), platform.sweepTime(), second.sweepTime()]);
      expect(results.reduce((n, r) => n + r.scheduled, 0)).toBe(total);
      expect(await count(platform.db, "select count(*) as n from messages where text like 'race %'")).toBe(total);
      expect(await count(platform.db, "select count(distinct text) as n from messages where text like 'race %'")).toBe(total);
      expect(await count(platform.db, "select count(*) as n from scheduled_messages where text like 'race %' and status = 'SENT'")).toBe(
        total,
      );
      // Each room's sequence has no gap and no repeat.
      for (const c of rooms) {
        const { rows } = await platform.db.query<{ n: number; max: number }>(
          'select count(*)::int as n, max(seq)::int as max from messages where room_id = $1',
          [c.roomId],
        );
        expect(rows[0]!.n).toBe(rows[0]!.max);
      }
    } finally {
      await second.stop();
    }
  });
});

describe('mentions', () => {
  test('a scheduled message mentions as a send does, top-level and thread reply', async () => {
    const { roomId, owner, member } = await fx.cast();
    const root = await fx.send(owner, roomId, 'root');
    const top = (await schedule(owner, roomId, { text: `<@${member.id}> later`, sendAt: at(HOUR) })).body.data;
    const reply = (await schedule(owner, roomId, { text: `<@${member.id}> in the thread`, sendAt: at(HOUR), threadRootId: root.id })).body
      .data;
    clock.set(new Date(at(HOUR)));
    await platform.sweepTime();
    for (const sm of [top, reply]) {
      const sent = (await fx.api(owner, 'GET', `/messages/scheduled/${sm.id}`)).body.data;
      expect(sent.status).toBe('SENT');
      const message = (await fx.api(owner, 'GET', `/rooms/${roomId}/messages/${sent.messageId}`)).body.data;
      expect(message.entities).toEqual([{ type: 'mention', offset: 0, length: 39, accountId: member.id }]);
    }
    expect(await count(platform.db, 'select count(*) as n from mentions where account_id = $1', [member.id])).toBe(2);
  });
});
