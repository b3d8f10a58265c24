// Events a client renders without a request: message events carry the message as GET returns it (without the
// per-user hiddenForMe), reactions their new counts, room and member events the room and member views; the
// REST catch-up returns the same bodies; a payload above the size bound carries its ids and truncated: true. Every
// event validates against the body its topic declares in the chat document.
import { realtimeContract } from '../../support/realtime-contract.js';
import { startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { maxEventBytes } from '../../../src/chat/realtime/event-views.js';
import { api, createRoom, Probe, restEvents, send, wsUrl, type EventBody } from './support.js';
import { eventOf } from '../../helpers/match.js';
import { eventually } from '../../helpers/expect.js';

let p: TestPlatform;
beforeAll(async () => {
  p = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await p?.stop();
});

/** GET's message view without the per-user field the events leave to the per-user events. */
/** The account's whole event log once it holds an event of the topic, undefined until then (for eventually()). */
async function logWithTopic(who: TestAccount, topic: string): Promise<EventBody[] | undefined> {
  const all = await restEvents(p, who, 0);
  return all.some((e) => e.topic === topic) ? all : undefined;
}

const shared = ({ hiddenForMe: _perUser, thread, ...rest }: Record<string, any>) =>
  thread ? { ...rest, thread: { replyCount: thread.replyCount, lastReplyAt: thread.lastReplyAt, lastReply: thread.lastReply } } : rest;

test('message, reaction, room and member events carry their views, the same over the socket and over REST', async () => {
  const tenant = await p.tenant();
  const [alice, bob, carol] = [
    await tenant.account({ displayName: 'Alice' }),
    await tenant.account(),
    await tenant.account({ displayName: 'Carol' }),
  ];
  const live = await Probe.open(wsUrl(p), alice.token);
  try {
    const start = live.lastSeq;
    await live.subscribeEvents();
    const roomId = await createRoom(p, bob, [alice], 'Views');
    const created = await live.waitFor(eventOf('room.created', { roomId }));
    expect(created.payload.room).toMatchObject({
      id: roomId,
      type: 'GROUP',
      name: 'Views',
      memberCount: 2,
      createdBy: bob.id,
      lastMessage: null,
    });
    expect(created.payload.room).not.toHaveProperty('unreadCount');

    const root = await send(p, bob, roomId, 'hello **world**');
    const sent = await live.waitFor(eventOf('message.created', { messageId: root }));
    // The ids of before stay beside the view.
    expect(sent.payload).toMatchObject({ roomId, messageId: root, senderId: bob.id, seq: 1, threadRootId: null });
    expect(sent.payload.message).toEqual(shared(await api(p, alice, 'GET', `/rooms/${roomId}/messages/${root}`)));
    expect(sent.payload.message.text).toBe('hello **world**');

    const reply = await api(p, alice, 'POST', `/rooms/${roomId}/messages`, { text: 'a reply', threadRootId: root });
    const replied = await live.waitFor(eventOf('message.created', { messageId: reply.id }));
    expect(replied.payload.message).toMatchObject({ id: reply.id, text: 'a reply', threadRootId: root });
    expect(replied.payload.rootThread).toEqual({
      replyCount: 1,
      lastReplyAt: expect.any(String),
      lastReply: { id: reply.id, senderId: alice.id, text: 'a reply', createdAt: reply.createdAt },
    });

    await api(p, bob, 'PATCH', `/rooms/${roomId}/messages/${root}`, { text: 'hello again' });
    const edited = await live.waitFor(eventOf('message.edited', { messageId: root }));
    const afterEdit = await api(p, alice, 'GET', `/rooms/${roomId}/messages/${root}`);
    expect(edited.payload.message).toEqual(shared(afterEdit));
    expect(edited.payload.message).toMatchObject({ text: 'hello again', editedAt: expect.any(String), thread: { replyCount: 1 } });

    await api(p, alice, 'POST', `/rooms/${roomId}/messages/${root}/reactions`, { emoji: '👍' });
    await api(p, bob, 'POST', `/rooms/${roomId}/messages/${root}/reactions`, { emoji: '👍' });
    await api(p, bob, 'POST', `/rooms/${roomId}/messages/${root}/reactions`, { emoji: '🎉' });
    await api(p, bob, 'DELETE', `/rooms/${roomId}/messages/${root}/reactions/${encodeURIComponent('👍')}`);
    const removed = await live.waitFor(eventOf('reaction.removed', { messageId: root }));
    expect(removed.payload).toMatchObject({
      emoji: '👍',
      accountId: bob.id,
      reactions: [
        { emoji: '👍', count: 1 },
        { emoji: '🎉', count: 1 },
      ],
    });

    await api(p, bob, 'PATCH', `/rooms/${roomId}`, { name: 'Renamed' });
    const renamed = await live.waitFor(eventOf('room.updated', { roomId }));
    expect(renamed.payload).toMatchObject({
      changes: expect.anything(),
      room: { id: roomId, name: 'Renamed', lastMessage: { id: root, text: 'hello again' } },
    });

    await api(p, bob, 'POST', `/rooms/${roomId}/members`, { accountIds: [carol.id] });
    const added = await live.waitFor(eventOf('member.added', { roomId }));
    expect(added.payload).toMatchObject({ accountIds: [carol.id], room: { memberCount: 3 } });
    expect(added.payload.members).toEqual([
      { accountId: carol.id, role: 'MEMBER', joinedAt: expect.any(String), displayName: 'Carol', avatarUrl: null, accountType: 'USER' },
    ]);

    await api(p, bob, 'POST', `/rooms/${roomId}/messages/${root}/recall`);
    const recalled = await live.waitFor(eventOf('message.recalled', { messageId: root }));
    expect(recalled.payload.message).toMatchObject({ id: root, recalled: true, text: null, attachments: [] });

    // Each event is its topic's declared body.
    const contract = await realtimeContract(p.chatUrl);
    expect(live.events.flatMap((e) => contract.problems(e))).toEqual([]);
    const undeclared = { ...sent, payload: { ...sent.payload, message: { ...sent.payload.message, text: 42 } } };
    expect(contract.problems(undeclared)).toEqual([
      'message.created/payload/message/text must be string',
      'message.created/payload/message/text must be null',
      'message.created/payload/message/text must match a schema in anyOf',
    ]);
    expect(contract.problems({ ...sent, topic: 'message.unknown' })).toEqual(['the document declares no event message.unknown']);

    // The log holds the same bodies: resume-after and GET /me/events return what the socket got.
    const rest = await restEvents(p, alice, start);
    expect(rest.slice(0, live.events.length)).toEqual(live.events);
    const resumed = await Probe.open(wsUrl(p), alice.token);
    try {
      await resumed.subscribeEvents(start);
      await resumed.waitFor((e) => e.seq === recalled.seq);
      expect(resumed.events.slice(0, live.events.length)).toEqual(live.events);
    } finally {
      await resumed.close();
    }
  } finally {
    await live.close();
  }
});

test('an event whose views would pass the size bound carries its ids and truncated: true', async () => {
  const tenant = await p.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const roomId = await createRoom(p, bob, [alice]);
  const messageId = await send(p, bob, roomId, 'small');
  // A payload near the bound on its own (written as a change would write it): its view would take it over.
  const filler = 'x'.repeat(maxEventBytes - 400);
  await p.db.query('insert into outbox (topic, payload) values ($1, $2)', [
    'message.edited',
    JSON.stringify({
      audience: { kind: 'room', roomId },
      roomId,
      messageId,
      senderId: bob.id,
      editedAt: new Date().toISOString(),
      note: filler,
    }),
  ]);
  await send(p, bob, roomId, 'after'); // asks for a drain
  const events = await eventually(() => logWithTopic(alice, 'message.edited'), 5000, 50);
  const big = events.find((e) => e.topic === 'message.edited')!;
  expect(big.payload).toMatchObject({ roomId, messageId, truncated: true });
  expect(big.payload).not.toHaveProperty('message');
  const small = events.find(eventOf('message.created', { messageId }))!;
  expect(small.payload.message).toMatchObject({ id: messageId, text: 'small' });
  expect(small.payload).not.toHaveProperty('truncated');
  const contract = await realtimeContract(p.chatUrl);
  expect([big, small].flatMap((e) => contract.problems(e))).toEqual([]);
});
