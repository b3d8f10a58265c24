// Contacts over the real listener: idempotent invitations, mutual invitations accepted at once (also when they
// race), accept by the invitee only, the pending lists, decline, cancel and removal with new invitations after
// them, and 1-1 rooms across customers through an accepted contact.
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { chatNextCursor, cursorParam, walkPages } from '../../../test/helpers/paging.js';
import { choose } from '../../../test/helpers/data.js';

let platform: TestPlatform;
let base: string;
let tenant: TestTenant;
let otherTenant: TestTenant;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  base = platform.chatUrl;
  [tenant, otherTenant] = await Promise.all([platform.tenant(), platform.tenant()]);
});
afterAll(async () => {
  await platform.stop();
});

const api = (who: TestAccount, method: string, path: string, body?: unknown) =>
  call(base, method, `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });
const invite = (from: TestAccount, to: TestAccount | string) =>
  api(from, 'POST', '/contacts/requests', { accountId: typeof to === 'string' ? to : to.id });
const pending = async (who: TestAccount, direction?: string) =>
  (await api(who, 'GET', `/contacts/requests${direction ? `?direction=${direction}` : ''}`)).body.data as Array<{
    id: string;
    accountId: string;
    direction: string;
  }>;
const requestsBetween = (a: string, b: string) =>
  count(
    platform.db,
    'select count(*) as n from contact_requests where (requester_id = $1 and invitee_id = $2) or (requester_id = $2 and invitee_id = $1)',
    [a, b],
  );

describe('invitations', () => {
  test('an invitation across customers is pending, listed incoming for the invitee and outgoing for the requester; a repeat answers the same request', async () => {
    const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
    const first = await invite(ana, bo);
    expectOk(first);
    expect(first.body.data).toMatchObject({
      direction: 'outgoing',
      status: 'PENDING',
      accountId: bo.id,
      moduleCode: otherTenant.moduleCode,
      customerAccountId: otherTenant.customer,
      acceptedAt: null,
    });
    const again = await invite(ana, bo);
    expect(again.body.data).toEqual(first.body.data);
    expect(await requestsBetween(ana.id, bo.id)).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'contact_request.created' and payload->>'requestId' = $1", [
        first.body.data.id,
      ]),
    ).toBe(1);
    expect((await pending(bo)).map((r) => [r.id, r.direction, r.accountId])).toEqual([[first.body.data.id, 'incoming', ana.id]]);
    expect(await pending(bo, 'incoming')).toEqual(await pending(bo));
    expect(await pending(bo, 'outgoing')).toEqual([]);
    expect((await pending(ana, 'outgoing')).map((r) => r.id)).toEqual([first.body.data.id]);
    expect(await pending(ana)).toEqual([]);
  });

  test('when the other side already invited, both requests become ACCEPTED at once and leave the pending lists', async () => {
    const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
    const hers = (await invite(ana, bo)).body.data;
    const his = await invite(bo, ana);
    expectOk(his);
    expect(his.body.data).toMatchObject({ direction: 'outgoing', status: 'ACCEPTED', accountId: ana.id });
    expect(his.body.data.acceptedAt).not.toBeNull();
    const { rows } = await platform.db.query('select id, status from contact_requests where id = any($1::uuid[]) order by id', [
      [hers.id, his.body.data.id],
    ]);
    expect(rows.map((r) => r.status)).toEqual(['ACCEPTED', 'ACCEPTED']);
    expect(await pending(ana, 'outgoing')).toEqual([]);
    expect(await pending(bo)).toEqual([]);
    expect((await invite(ana, bo)).body.data).toMatchObject({ id: hers.id, status: 'ACCEPTED' });
  });

  test('two people inviting each other at the same moment both end ACCEPTED', async () => {
    for (let i = 0; i < 5; i++) {
      const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
      const [a, b] = await Promise.all([invite(ana, bo), invite(bo, ana)]);
      expectOk(a);
      expectOk(b);
      expect(
        await count(
          platform.db,
          "select count(*) as n from contact_requests where status = 'ACCEPTED' and (requester_id = $1 or invitee_id = $1)",
          [ana.id],
        ),
      ).toBe(2);
    }
  });

  test('refusals: oneself, an unknown, inactive or bot account (400), a bad direction (400); nothing is saved', async () => {
    const ana = await tenant.account();
    const gone = await tenant.account({ status: 'DEACTIVATED' });
    const bot = await tenant.account();
    await platform.db.query(`update accounts set account_type = 'BOT' where id = $1`, [bot.id]);
    for (const target of [ana.id, gone.id, bot.id, '00000000-0000-4000-8000-000000000000']) {
      expectError(await invite(ana, target), 400, 'validation_failed', 'body.accountId');
    }
    expectError(await api(ana, 'GET', '/contacts/requests?direction=sideways'), 400, 'validation_failed', 'query.direction');
    expectError(await api(ana, 'GET', '/contacts/requests?cursor=nope'), 400, 'invalid_cursor', 'query.cursor');
    expect(await count(platform.db, 'select count(*) as n from contact_requests where requester_id = $1', [ana.id])).toBe(0);
  });

  test('pending lists page newest first', async () => {
    const ana = await tenant.account();
    const senders = await Promise.all(Array.from({ length: 5 }, () => otherTenant.account()));
    const ids: string[] = [];
    for (const s of senders) ids.push((await invite(s, ana)).body.data.id);
    const pages = await walkPages(async (cursor) => {
      const res = await api(ana, 'GET', `/contacts/requests?limit=2${cursorParam(cursor)}`);
      expectOk(res);
      return res;
    }, chatNextCursor);
    const seen: string[] = pages.flatMap((res) => res.body.data.map((r: { id: string }) => r.id));
    expect(seen).toEqual([...ids].reverse());
  });
});

describe('accept', () => {
  test('the invitee accepts; the requester is refused 403, anyone else 404; accepting again answers it unchanged', async () => {
    const [ana, bo, cy] = await Promise.all([tenant.account(), otherTenant.account(), tenant.account()]);
    const request = (await invite(ana, bo)).body.data;
    expectError(await api(ana, 'POST', `/contacts/requests/${request.id}/accept`), 403, 'forbidden');
    expectError(await api(cy, 'POST', `/contacts/requests/${request.id}/accept`), 404, 'contact_request_not_found');
    expectError(await api(bo, 'POST', '/contacts/requests/00000000-0000-4000-8000-000000000000/accept'), 404, 'contact_request_not_found');
    expect((await platform.db.query('select status from contact_requests where id = $1', [request.id])).rows[0].status).toBe('PENDING');
    const res = await api(bo, 'POST', `/contacts/requests/${request.id}/accept`);
    expectOk(res);
    expect(res.body.data).toMatchObject({ id: request.id, direction: 'incoming', status: 'ACCEPTED', accountId: ana.id });
    const again = await api(bo, 'POST', `/contacts/requests/${request.id}/accept`);
    expect(again.body.data).toEqual(res.body.data);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'contact_request.accepted' and payload->>'requestId' = $1", [
        request.id,
      ]),
    ).toBe(1);
    expect(await pending(bo)).toEqual([]);
  });
});

const statusOf = async (requestId: string) =>
  (await platform.db.query('select status from contact_requests where id = $1', [requestId])).rows[0].status as string;
const eventsOf = (topic: string, requestId: string) =>
  count(platform.db, "select count(*) as n from outbox where topic = $1 and payload->>'requestId' = $2", [topic, requestId]);

describe('decline and cancel', () => {
  test('the invitee declines: DECLINED with endedAt, out of both pending lists, one event; declining again answers it unchanged', async () => {
    const [ana, bo, cy] = await Promise.all([tenant.account(), otherTenant.account(), tenant.account()]);
    const request = (await invite(ana, bo)).body.data;
    expectError(await api(ana, 'POST', `/contacts/requests/${request.id}/decline`), 403, 'forbidden');
    expectError(await api(cy, 'POST', `/contacts/requests/${request.id}/decline`), 404, 'contact_request_not_found');
    expect(await statusOf(request.id)).toBe('PENDING');
    const res = await api(bo, 'POST', `/contacts/requests/${request.id}/decline`);
    expectOk(res);
    expect(res.body.data).toMatchObject({ id: request.id, direction: 'incoming', status: 'DECLINED', accountId: ana.id, acceptedAt: null });
    expect(res.body.data.endedAt).not.toBeNull();
    expect((await api(bo, 'POST', `/contacts/requests/${request.id}/decline`)).body.data).toEqual(res.body.data);
    expect(await eventsOf('contact_request.declined', request.id)).toBe(1);
    expect(await pending(bo)).toEqual([]);
    expect(await pending(ana, 'outgoing')).toEqual([]);
    expectError(await api(bo, 'POST', `/contacts/requests/${request.id}/accept`), 409, 'contact_request_not_pending');
    expectError(await api(ana, 'POST', `/contacts/requests/${request.id}/cancel`), 409, 'contact_request_not_pending');
    expect(await statusOf(request.id)).toBe('DECLINED');
  });

  test('the requester cancels: CANCELLED, the invitee is refused 403 and can no longer accept', async () => {
    const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
    const request = (await invite(ana, bo)).body.data;
    expectError(await api(bo, 'POST', `/contacts/requests/${request.id}/cancel`), 403, 'forbidden');
    const res = await api(ana, 'POST', `/contacts/requests/${request.id}/cancel`);
    expectOk(res);
    expect(res.body.data).toMatchObject({ id: request.id, direction: 'outgoing', status: 'CANCELLED' });
    expect((await api(ana, 'POST', `/contacts/requests/${request.id}/cancel`)).body.data).toEqual(res.body.data);
    expect(await eventsOf('contact_request.cancelled', request.id)).toBe(1);
    expect(await pending(bo)).toEqual([]);
    expectError(await api(bo, 'POST', `/contacts/requests/${request.id}/accept`), 409, 'contact_request_not_pending');
    expectError(await api(bo, 'POST', `/contacts/requests/${request.id}/decline`), 409, 'contact_request_not_pending');
    expect(await statusOf(request.id)).toBe('CANCELLED');
  });

  test('an accepted request cannot be declined or cancelled (409), and stays ACCEPTED', async () => {
    const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
    const request = (await invite(ana, bo)).body.data;
    expectOk(await api(bo, 'POST', `/contacts/requests/${request.id}/accept`));
    expectError(await api(bo, 'POST', `/contacts/requests/${request.id}/decline`), 409, 'contact_request_not_pending');
    expectError(await api(ana, 'POST', `/contacts/requests/${request.id}/cancel`), 409, 'contact_request_not_pending');
    expect(await statusOf(request.id)).toBe('ACCEPTED');
  });

  test('after a decline or a cancel, either side may invite again: a new PENDING request, not an automatic acceptance', async () => {
    const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
    const declined = (await invite(ana, bo)).body.data;
    await api(bo, 'POST', `/contacts/requests/${declined.id}/decline`);
    const again = await invite(ana, bo);
    expectOk(again);
    expect(again.body.data).toMatchObject({ status: 'PENDING', direction: 'outgoing' });
    expect(again.body.data.id).not.toBe(declined.id);
    await api(ana, 'POST', `/contacts/requests/${again.body.data.id}/cancel`);
    const back = await invite(bo, ana);
    expect(back.body.data).toMatchObject({ status: 'PENDING', direction: 'outgoing' });
    expect((await pending(ana)).map((r) => r.id)).toEqual([back.body.data.id]);
    expect(await requestsBetween(ana.id, bo.id)).toBe(3);
  });

  test("a decline racing the other side's invitation: one of them wins whole, never an ACCEPTED request with a DECLINED twin", async () => {
    for (let i = 0; i < 5; i++) {
      const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
      const request = (await invite(ana, bo)).body.data;
      const [declined, invited] = await Promise.all([api(bo, 'POST', `/contacts/requests/${request.id}/decline`), invite(bo, ana)]);
      expectOk(invited);
      const { rows } = await platform.db.query(
        'select requester_id, status from contact_requests where requester_id = any($1::uuid[]) order by created_at',
        [[ana.id, bo.id]],
      );
      // Either the decline wins (the request DECLINED, the invitation back a new PENDING one) or the invitation
      // does (both ACCEPTED, the decline refused as no longer pending).
      expect([
        { status: 200, code: undefined, statuses: ['DECLINED', 'PENDING'] },
        { status: 409, code: 'contact_request_not_pending', statuses: ['ACCEPTED', 'ACCEPTED'] },
      ]).toContainEqual({ status: declined.status, code: declined.body.error?.code, statuses: rows.map((r) => r.status) });
    }
  });
});

describe('remove', () => {
  test('either side removes an accepted contact: both directions end REMOVED, the 1-1 room can no longer be opened, a new invitation is PENDING', async () => {
    for (const remover of ['requester', 'invitee'] as const) {
      const [ana, bo, cy] = await Promise.all([tenant.account(), otherTenant.account(), tenant.account()]);
      const hers = (await invite(ana, bo)).body.data;
      const his = (await invite(bo, ana)).body.data;
      expect(his.status).toBe('ACCEPTED');
      expectOk(await api(ana, 'POST', '/rooms/private', { accountId: bo.id }));
      expectError(await api(cy, 'POST', `/contacts/requests/${hers.id}/remove`), 404, 'contact_request_not_found');
      const res = await api(choose(remover === 'requester', ana, bo), 'POST', `/contacts/requests/${hers.id}/remove`);
      expectOk(res);
      expect(res.body.data).toMatchObject({ id: hers.id, status: 'REMOVED' });
      expect(res.body.data.endedAt).not.toBeNull();
      expect([await statusOf(hers.id), await statusOf(his.id)]).toEqual(['REMOVED', 'REMOVED']);
      expect(await eventsOf('contact_request.removed', hers.id)).toBe(1);
      expect(await eventsOf('contact_request.removed', his.id)).toBe(1);
      expect((await api(bo, 'POST', `/contacts/requests/${his.id}/remove`)).body.data).toMatchObject({ id: his.id, status: 'REMOVED' });
      expect(await eventsOf('contact_request.removed', his.id)).toBe(1);
      expectError(await api(bo, 'POST', '/rooms/private', { accountId: ana.id }), 400, 'validation_failed', 'body.accountId');
      expectError(await api(ana, 'POST', `/contacts/requests/${his.id}/accept`), 409, 'contact_request_not_pending');
      expect((await invite(ana, bo)).body.data).toMatchObject({ status: 'PENDING' });
    }
  });

  test('a pending, declined or cancelled request is no contact to remove (409), and keeps its status', async () => {
    const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
    const request = (await invite(ana, bo)).body.data;
    expectError(await api(ana, 'POST', `/contacts/requests/${request.id}/remove`), 409, 'contact_not_accepted');
    expect(await statusOf(request.id)).toBe('PENDING');
    await api(ana, 'POST', `/contacts/requests/${request.id}/cancel`);
    expectError(await api(bo, 'POST', `/contacts/requests/${request.id}/remove`), 409, 'contact_not_accepted');
    expect(await statusOf(request.id)).toBe('CANCELLED');
  });
});

describe('1-1 rooms across customers', () => {
  const privateRoom = (from: TestAccount, to: TestAccount) => api(from, 'POST', '/rooms/private', { accountId: to.id });

  test('refused without a contact and with a pending one (the same 400 as today); allowed once accepted, for both sides', async () => {
    const [ana, bo] = await Promise.all([tenant.account(), otherTenant.account()]);
    expectError(await privateRoom(ana, bo), 400, 'validation_failed', 'body.accountId');
    const request = (await invite(ana, bo)).body.data;
    expectError(await privateRoom(ana, bo), 400, 'validation_failed', 'body.accountId');
    expect(
      await count(platform.db, "select count(*) as n from rooms where type = 'PRIVATE' and created_by = any($1::uuid[])", [
        [ana.id, bo.id],
      ]),
    ).toBe(0);
    expectOk(await api(bo, 'POST', `/contacts/requests/${request.id}/accept`));
    const room = await privateRoom(ana, bo);
    expectOk(room);
    expect(room.body.data).toMatchObject({ type: 'PRIVATE', memberCount: 2 });
    const same = await privateRoom(bo, ana);
    expect(same.body.data.id).toBe(room.body.data.id);
    expectOk(await api(bo, 'POST', `/rooms/${room.body.data.id}/messages`, { text: 'hello across customers' }), 201);
  });

  test('a contact whose account is deactivated no longer opens a room; the same customer needs no contact', async () => {
    const [ana, bo, colleague] = await Promise.all([tenant.account(), otherTenant.account(), tenant.account()]);
    await invite(ana, bo);
    await invite(bo, ana);
    await call(base, 'PATCH', `/api/v1/accounts/${bo.id}/status`, { token: await platform.adminToken(), body: { status: 'DEACTIVATED' } });
    expectError(await privateRoom(ana, bo), 400, 'validation_failed', 'body.accountId');
    expectOk(await privateRoom(ana, colleague));
  });
});
