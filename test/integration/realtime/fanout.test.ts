// Fan-out across two chat nodes that share only PostgreSQL and Redis: events caused through node A reach
// @stomp/stompjs clients on node B with consecutive per-account seqs, for every audience kind, and only their
// audience; GET /api/v1/me/events returns the same stream.
import { expectError } from '../../helpers/expect.js';
import { realtimeContract } from '../../support/realtime-contract.js';
import { call, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { api, createRoom, isMessageIn, Probe, restEvents, send, startNode, wsUrl } from './support.js';
import { eventOf } from '../../helpers/match.js';

/** Whether the event is about the room or the channel. */
const aboutRoomOrChannel = (e: { payload: Record<string, any> }, roomId: string, channelId: string) =>
  e.payload.roomId === roomId || e.payload.channelId === channelId;

/** GET /me/events once it holds at least n events (polled for up to 5 s). */
async function eventsPageWithAtLeast(p: TestPlatform, who: TestAccount, n: number): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const page = await api(p, who, 'GET', '/me/events');
    if (page.events.length >= n) return page;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the events did not arrive');
}

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

test('messages sent through node A reach a member connected to node B, in order, with consecutive seqs; REST equals the stream', async () => {
  const tenant = await a.tenant();
  const [alice, bob, carol] = [await tenant.account(), await tenant.account(), await tenant.account()];
  const onB = await Probe.open(wsUrl(b), alice.token);
  const outsider = await Probe.open(wsUrl(a), carol.token);
  try {
    const start = onB.lastSeq;
    await onB.subscribeEvents();
    await outsider.subscribeEvents();

    const roomId = await createRoom(a, bob, [alice]);
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push(await send(a, bob, roomId, `hello ${i}`));
    // A per-user event (accounts audience): only alice hears that she hid a message.
    await api(a, alice, 'DELETE', `/rooms/${roomId}/messages/${sent[0]}`);
    await onB.waitFor(eventOf('message.hidden', { messageId: sent[0] }));

    const mine = onB.events;
    expect(mine.map((e) => e.seq)).toEqual(mine.map((_, i) => start + 1 + i));
    expect(onB.seqHeaders).toEqual(mine.map((e) => e.seq));
    expect(mine.filter((e) => e.payload.roomId === roomId).map((e) => e.topic)).toEqual([
      'room.created',
      ...sent.map(() => 'message.created'),
      'message.hidden',
    ]);
    expect(mine.filter(isMessageIn(roomId)).map((e) => e.payload.messageId)).toEqual(sent);
    // One event, one id: the same in every recipient's stream.
    expect(new Set(mine.map((e) => e.eventId)).size).toBe(mine.length);

    // The REST catch-up (read on the other node) is the same stream.
    const rest = await restEvents(a, alice, start);
    expect(rest.slice(0, mine.length)).toEqual(mine);

    // carol is in no room with them: nothing of that room reached her.
    expect(outsider.events.filter((e) => e.payload.roomId === roomId)).toEqual([]);
  } finally {
    await onB.close();
    await outsider.close();
  }
});

test('every audience kind: room, accounts, channel and a targeted broadcast, each to its own', async () => {
  const tenant = await a.tenant();
  const [alice, bob, dave] = [await tenant.account(), await tenant.account(), await tenant.account()];
  const admin = await a.adminToken();
  const onB = await Probe.open(wsUrl(b), alice.token);
  const daveOnA = await Probe.open(wsUrl(a), dave.token);
  try {
    const start = onB.lastSeq;
    await onB.subscribeEvents();
    await daveOnA.subscribeEvents();

    const roomId = await createRoom(a, bob, [alice]);
    const root = await send(a, bob, roomId, 'root');
    // A reply: message.created to the room, thread.followed to the replier and to the root's author.
    const reply = await api(a, alice, 'POST', `/rooms/${roomId}/messages`, { text: 'reply', threadRootId: root });
    const channel = await api(a, bob, 'POST', '/channels', { name: 'Realtime channel', membershipMode: 'EXPLICIT', memberIds: [alice.id] });
    const broadcast = await api(a, admin, 'POST', '/admin/broadcasts/targeted', {
      text: 'to this module',
      audience: { modules: [tenant.moduleCode] },
    });

    await onB.waitFor(eventOf('broadcast.created', { broadcastId: broadcast.id }));
    const topics = onB.events.map((e) => e.topic);
    expect(topics).toEqual(
      expect.arrayContaining(['room.created', 'message.created', 'thread.followed', 'channel.created', 'broadcast.created']),
    );
    expect(onB.events.find((e) => e.topic === 'thread.followed')!.payload).toMatchObject({ rootId: root, accountId: alice.id });
    expect(onB.events.find(eventOf('message.created', { messageId: reply.id }))!.payload.threadRootId).toBe(root);
    expect(onB.events.find((e) => e.topic === 'channel.created')!.payload.channelId).toBe(channel.id);
    expect(onB.events.map((e) => e.seq)).toEqual(onB.events.map((_, i) => start + 1 + i));
    // Each event of every kind is the body its topic declares in the chat document.
    const contract = await realtimeContract(a.chatUrl);
    expect(onB.events.flatMap((e) => contract.problems(e))).toEqual([]);

    // dave is in the module but in no room or channel: the broadcast only.
    await daveOnA.waitFor(eventOf('broadcast.created', { broadcastId: broadcast.id }));
    expect(daveOnA.events.filter((e) => aboutRoomOrChannel(e, roomId, channel.id))).toEqual([]);
    // bob follows his root automatically: his stream has it, alice's has only her own follow.
    const bobs = await restEvents(b, bob, 0);
    expect(bobs.filter((e) => e.topic === 'thread.followed').map((e) => e.payload.accountId)).toEqual([bob.id]);
    expect(onB.events.filter((e) => e.topic === 'thread.followed').map((e) => e.payload.accountId)).toEqual([alice.id]);
  } finally {
    await onB.close();
    await daveOnA.close();
  }
});

test('GET /me/events pages by after and limit; an after beyond the newest event is an empty page; bad input is 400', async () => {
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const roomId = await createRoom(a, bob, [alice]);
  for (let i = 0; i < 4; i++) await send(a, bob, roomId, `m${i}`);
  const all = await eventsPageWithAtLeast(b, alice, 5);
  // (A broadcast to everyone made by another test at the same time would be in the stream too.)
  const n = all.events.length;
  expect(all.events.map((e: { seq: number }) => e.seq)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  expect(all).toMatchObject({ hasMore: false, lastSeq: n });
  expect(all.events.filter(isMessageIn(roomId)).map((e: { payload: { text?: string; seq: number } }) => e.payload.seq)).toEqual([
    1, 2, 3, 4,
  ]);

  const page = await api(b, alice, 'GET', '/me/events?after=1&limit=2');
  expect(page.events.map((e: { seq: number }) => e.seq)).toEqual([2, 3]);
  expect(page).toMatchObject({ hasMore: true });
  expect(page.events).toEqual(all.events.slice(1, 3));

  const end = (await api(b, alice, 'GET', '/me/events?after=0&limit=1')).lastSeq as number;
  expect(await api(b, alice, 'GET', `/me/events?after=${end}`)).toEqual({ events: [], hasMore: false, lastSeq: end });
  expect(await api(b, alice, 'GET', `/me/events?after=${end + 100}`)).toEqual({ events: [], hasMore: false, lastSeq: end });
  expectError(await call(b.chatUrl, 'GET', '/api/v1/me/events?after=-1', { token: alice.token }), 400, 'validation_failed', 'query.after');
  expectError(await call(b.chatUrl, 'GET', '/api/v1/me/events?limit=501', { token: alice.token }), 400, 'validation_failed', 'query.limit');
  expectError(await call(b.chatUrl, 'GET', '/api/v1/me/events'), 401, 'unauthenticated');
});
