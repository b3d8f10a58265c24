// Soft-kick: an account deactivated or banned through one node loses every open session on every node (a
// notice on /user/queue/session, then the ERROR frame and the close), and its reconnects are refused.
import WebSocket from 'ws';
import { connectRealtime, type SessionNotice } from '../../../sdk/chat/src/index.js';
import { eventually, expectError } from '../../helpers/expect.js';
import { call, type TestPlatform } from '../../support/platform.js';
import { api, Probe, startNode, wsUrl } from './support.js';

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

test('deactivation through node A ends the sessions on both nodes, with the notice where subscribed; reconnecting is refused', async () => {
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const onB = await Probe.open(wsUrl(b), alice.token);
  const onA = await Probe.open(wsUrl(a), alice.token);
  const bystander = await Probe.open(wsUrl(b), bob.token);
  await onB.subscribeSession();
  await onB.subscribeEvents();
  await bystander.subscribeSession();

  await api(a, await a.adminToken(), 'PATCH', `/accounts/${alice.id}/status`, { status: 'DEACTIVATED' });

  await onB.waitForClose();
  expect(onB.notices).toEqual([
    { type: 'soft-kick', reason: 'account_deactivated', status: 'DEACTIVATED', message: expect.stringContaining('deactivated') },
  ]);
  expect(onB.errors.map((e) => e.code)).toEqual(['account_deactivated']);
  // The session without a /user/queue/session subscription gets the ERROR frame alone.
  await onA.waitForClose();
  expect(onA.notices).toEqual([]);
  expect(onA.errors.map((e) => e.code)).toEqual(['account_deactivated']);

  for (const node of [a, b]) expect(await Probe.refusal(wsUrl(node), alice.token)).toMatchObject({ code: 'account_deactivated' });
  expectError(await call(b.chatUrl, 'GET', '/api/v1/me/events', { token: alice.token }), 403, 'account_deactivated');
  // Someone else's session is untouched.
  expect([bystander.client.connected, bystander.notices, bystander.errors]).toEqual([true, [], []]);
  await bystander.close();

  // Back to ACTIVE: the same token connects again.
  await api(b, await b.adminToken(), 'PATCH', `/accounts/${alice.id}/status`, { status: 'ACTIVE' });
  const again = await Probe.open(wsUrl(a), alice.token);
  expect(again.client.connected).toBe(true);
  await again.close();
});

test('a ban reaches the SDK helper as a soft-kick notice; the helper stops instead of reconnecting', async () => {
  const tenant = await a.tenant();
  const carol = await tenant.account();
  const notices: SessionNotice[] = [];
  const closed: string[] = [];
  let connects = 0;
  const conn = connectRealtime({
    url: b.chatUrl,
    token: carol.token,
    webSocketFactory: () => new WebSocket(wsUrl(b)),
    reconnectDelayMs: 50,
    onEvent: () => undefined,
    onNotice: (n) => notices.push(n),
    onClosed: (reason) => closed.push(reason),
    onConnect: () => connects++,
  });
  try {
    await eventually(async () => conn.connected);
    // Subscriptions are made right after CONNECTED; wait until the server holds them.
    await new Promise((r) => setTimeout(r, 200));
    await api(a, await a.adminToken(), 'PATCH', `/accounts/${carol.id}/status`, { status: 'BANNED' });
    await eventually(async () => closed.length > 0);
    expect(notices).toEqual([
      { type: 'soft-kick', reason: 'account_banned', status: 'BANNED', message: expect.stringContaining('banned') },
    ]);
    expect(closed).toEqual(['account_banned']);
    await new Promise((r) => setTimeout(r, 300)); // a reconnect would happen within this
    expect([connects, conn.connected, conn.client.active]).toEqual([1, false, false]);
  } finally {
    await conn.close();
  }
});
