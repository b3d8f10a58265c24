// Unread counts never drift: accounts reply concurrently in several threads while others hide, restore and recall
// replies and mark threads read, follow and unfollow. Afterwards every number the API gives (per thread in the thread
// list, on topLevelOnly roots, in follow answers, and the global badge) equals a recount from scratch, and the
// roots' stored counters equal the replies stored.
import { expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let base: string;
let tenant: TestTenant;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  base = platform.chatUrl;
  tenant = await platform.tenant();
});
afterAll(async () => {
  await platform.stop();
});

/** A small deterministic generator, so that a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Decision 5, written independently of the service's SQL. */
async function recountThread(rootId: string, accountId: string): Promise<number> {
  const { rows } = await platform.db.query<{ n: number }>(
    `select count(*)::int as n
       from messages r
       left join thread_follows f on f.root_id = r.thread_root_id and f.account_id = $2
      where r.thread_root_id = $1
        and r.seq > coalesce(f.last_read_seq, 0)
        and r.sender_id <> $2
        and r.recalled_at is null
        and r.id not in (select message_id from message_hides where account_id = $2)`,
    [rootId, accountId],
  );
  return rows[0]!.n;
}

type Sent = { id: string; threadRootId: string | null };

/** Sends a message as `who` into the room; fails the test unless it is created. */
async function send(who: TestAccount, room: string, body: Record<string, unknown>): Promise<Sent> {
  const res = await call(base, 'POST', `/api/v1/rooms/${room}/messages`, { token: who.token, body });
  expectOk(res, 201);
  return res.body.data as Sent;
}

/** Two rooms with thread roots, the people in them, and what the concurrent writers and disturbers did. */
interface Scene {
  people: TestAccount[];
  owner: TestAccount;
  others: TestAccount[];
  roomId: string;
  room2: string;
  roots: Sent[];
  roomOf: Map<string, string>;
  replies: Array<{ id: string; root: string }>;
  /** Sends retried with the same clientMessageId: the id of the first answer and of the retry's. */
  retries: Array<{ first: string; again: string }>;
  pick: <T>(xs: readonly T[]) => T;
  random: () => number;
}

async function scene(): Promise<Scene> {
  const people: TestAccount[] = await Promise.all(Array.from({ length: 6 }, () => tenant.account()));
  const [owner, ...others] = people as [TestAccount, ...TestAccount[]];
  const created = await call(base, 'POST', '/api/v1/rooms', {
    token: owner.token,
    body: { type: 'GROUP', name: 'busy', memberIds: others.map((p) => p.id) },
  });
  expectOk(created, 201);
  const roomId: string = created.body.data.id;
  // A second room whose threads some of the same people follow, to make the badge span rooms.
  const created2 = await call(base, 'POST', '/api/v1/rooms', {
    token: others[0]!.token,
    body: { type: 'GROUP', name: 'side', memberIds: [owner.id, others[1]!.id] },
  });
  const room2: string = created2.body.data.id;
  const roots = [
    ...(await Promise.all(people.slice(0, 4).map((p, i) => send(p, roomId, { text: `root ${i}` })))),
    await send(others[0]!, room2, { text: 'side root' }),
  ];
  const random = rng(20261123);
  return {
    people,
    owner,
    others,
    roomId,
    room2,
    roots,
    roomOf: new Map(roots.map((r, i) => [r.id, i < 4 ? roomId : room2])),
    replies: [],
    retries: [],
    random,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!,
  };
}

/** The members of the room a root is in: everyone in the busy room, three people in the side room. */
function membersOf(s: Scene, root: string): TestAccount[] {
  return s.roomOf.get(root) === s.roomId ? s.people : [s.owner, s.others[0]!, s.others[1]!];
}

/** The rooms `who` is a member of. */
function roomsOf(s: Scene, who: TestAccount): string[] {
  return [s.roomId, s.room2].filter((room) => room === s.roomId || [s.owner, s.others[0], s.others[1]].includes(who));
}

/** Writer: replies in threads of its rooms, sometimes to a reply, sometimes retrying a send with its clientMessageId. */
async function writer(s: Scene, who: TestAccount, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const root = s.pick(s.roots.filter((r) => membersOf(s, r.id).includes(who))).id;
    const inThread = s.replies.filter((r) => r.root === root);
    const target = inThread.length > 0 && s.random() < 0.3 ? s.pick(inThread).id : root;
    const body: Record<string, unknown> = { text: `${who.id.slice(0, 4)} ${i}`, threadRootId: target };
    if (s.random() < 0.2) body.clientMessageId = `c-${i}`;
    const m = await send(who, s.roomOf.get(root)!, body);
    if (body.clientMessageId !== undefined) s.retries.push({ first: m.id, again: (await send(who, s.roomOf.get(root)!, body)).id });
    expect(m.threadRootId).toBe(root);
    s.replies.push({ id: m.id, root });
  }
}

/** One disturbance of a reply, chosen by `action` in [0, 1): hide, restore, recall (by the room's owner), read, unfollow, follow. */
async function disturb(s: Scene, action: number, target: { id: string; root: string }, who: TestAccount): Promise<void> {
  const room = s.roomOf.get(target.root)!;
  const roomOwner = room === s.roomId ? s.owner : s.others[0]!;
  if (action < 0.25) {
    expectOk(await call(base, 'DELETE', `/api/v1/rooms/${room}/messages/${target.id}`, { token: who.token }));
  } else if (action < 0.3) {
    expectOk(await call(base, 'POST', `/api/v1/rooms/${room}/messages/${target.id}/restore`, { token: who.token }));
  } else if (action < 0.45) {
    expectOk(await call(base, 'POST', `/api/v1/rooms/${room}/messages/${target.id}/recall`, { token: roomOwner.token }));
  } else if (action < 0.85) {
    expectOk(await call(base, 'POST', `/api/v1/threads/${target.root}/read`, { token: who.token, body: { messageId: target.id } }));
  } else if (action < 0.93) {
    expectOk(await call(base, 'DELETE', `/api/v1/threads/${target.root}/follow`, { token: who.token }));
  } else {
    expectOk(await call(base, 'POST', `/api/v1/threads/${target.root}/follow`, { token: who.token }));
  }
}

/** Disturber: n times, once there are replies, disturbs a random one as a random member of its room. */
async function disturber(s: Scene, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, 2));
    if (s.replies.length === 0) continue;
    const target = s.pick(s.replies);
    const who = s.pick(membersOf(s, target.root));
    await disturb(s, s.random(), target, who);
  }
}

/** The global badge recounted: followed threads, in rooms the account is in, with at least one unread reply. */
async function recountBadge(who: TestAccount): Promise<number> {
  const { rows } = await platform.db.query<{ root_id: string }>(
    `select f.root_id from thread_follows f
       join room_members rm on rm.room_id = f.room_id and rm.account_id = f.account_id
      where f.account_id = $1 and f.state = 'FOLLOWING'`,
    [who.id],
  );
  let badge = 0;
  for (const r of rows) if ((await recountThread(r.root_id, who.id)) > 0) badge += 1;
  return badge;
}

test('unread counts per thread and the global badge equal a recount after concurrent replies, hides, restores, recalls and reads', async () => {
  const s = await scene();
  const { people, roomId, room2, roots, replies } = s;
  // Writers (every member) and disturbers (hide and restore per account, recall, read, follow and unfollow) at once.
  await Promise.all([...people.map((p) => writer(s, p, 14)), disturber(s, 60), disturber(s, 60), disturber(s, 60)]);
  // A retried send with the same clientMessageId answers the message the first send created.
  expect(s.retries.map((r) => r.again)).toEqual(s.retries.map((r) => r.first));
  expect(s.retries.length).toBeGreaterThan(0);

  // Stored counters on the roots equal the replies stored, and the last reply is the newest one.
  const counters = await platform.db.query<{ id: string; reply_count: number; last_reply_id: string; stored: number; newest: string }>(
    `select m.id, m.reply_count, m.last_reply_id,
            (select count(*)::int from messages r where r.thread_root_id = m.id) as stored,
            (select r.id from messages r where r.thread_root_id = m.id order by r.seq desc limit 1) as newest
       from messages m where m.id = any($1::uuid[])`,
    [roots.map((r) => r.id)],
  );
  for (const row of counters.rows) {
    expect(row.reply_count).toBe(row.stored);
    expect(row.last_reply_id).toBe(row.newest);
  }
  expect(counters.rows.reduce((n, r) => n + r.reply_count, 0)).toBe(replies.length);

  for (const who of people) {
    // Per thread: the thread list and the topLevelOnly page of each room.
    for (const room of roomsOf(s, who)) {
      const list = await call(base, 'GET', `/api/v1/rooms/${room}/threads?limit=100`, { token: who.token });
      expectOk(list);
      const top = await call(base, 'GET', `/api/v1/rooms/${room}/messages?topLevelOnly=true&limit=100`, { token: who.token });
      expectOk(top);
      for (const t of list.body.data as Array<{ root: { id: string }; unreadCount: number; following: boolean }>) {
        const expected = await recountThread(t.root.id, who.id);
        expect({ who: who.id, root: t.root.id, unread: t.unreadCount }).toEqual({ who: who.id, root: t.root.id, unread: expected });
        const onPage = (top.body.data as Array<{ id: string; thread?: { unreadCount: number; following: boolean } }>).find(
          (m) => m.id === t.root.id,
        );
        expect(onPage?.thread?.unreadCount).toBe(expected);
        expect(onPage?.thread?.following).toBe(t.following);
      }
    }
    // The global badge: followed threads with at least one unread reply, in rooms the account is in.
    const expectedBadge = await recountBadge(who);
    const badge = await call(base, 'GET', '/api/v1/threads/unread-count', { token: who.token });
    expectOk(badge);
    expect({ who: who.id, badge: badge.body.data.count }).toEqual({ who: who.id, badge: expectedBadge });
    // The replier's own replies are read for it (unless a later reply of its own moved the mark further).
    const own = await platform.db.query<{ n: number }>(
      `select count(*)::int as n from messages r
         join thread_follows f on f.root_id = r.thread_root_id and f.account_id = r.sender_id
        where r.sender_id = $1 and r.seq > f.last_read_seq`,
      [who.id],
    );
    expect(own.rows[0]!.n).toBe(0);
  }
  // Something did happen: the run is not vacuous.
  expect(replies.length).toBe(6 * 14);
  const ids = replies.map((r) => r.id);
  expect(
    Number((await platform.db.query('select count(*) from message_hides where message_id = any($1::uuid[])', [ids])).rows[0].count),
  ).toBeGreaterThan(0);
  expect(
    Number(
      (await platform.db.query('select count(*) from messages where recalled_at is not null and id = any($1::uuid[])', [ids])).rows[0]
        .count,
    ),
  ).toBeGreaterThan(0);
  expect(
    Number(
      (
        await platform.db.query("select count(*) from thread_follows where state = 'UNFOLLOWED' and room_id = any($1::uuid[])", [
          [roomId, room2],
        ])
      ).rows[0].count,
    ),
  ).toBeGreaterThan(0);
});
