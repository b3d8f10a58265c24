// Benchmark section: the room list of a member of 1,000 rooms (a few messages each, some unread, a few pinned),
// first page and a later page, and the first page of a second member of 1,000 rooms whose 50 most recent rooms each
// hold 2,000 unread messages (a few of them hidden by that member), through the stack and as the statements the
// request ran, replayed through the driver. Goal (issue 9): p99 <= 50 ms.
import { call, type TestPlatform, type TestTenant } from '../support/platform.js';
import { captureStatements, describeStatements, type Statement } from './capture.js';
import { ms, progress, rps, table } from './report.js';
import { fmtMs, fmtRatio, type GoalRow } from './results.js';
import { checkPaired, measurePaired, type PairedCase } from './rounds.js';
import type { LoadGenerator } from './tasks.js';

const ROOMS = 1_000;
const MESSAGES_PER_ROOM = 3;
const LIMIT = 50;
const LATER_PAGE = 11; // rooms 501-550
const GOAL_P99_MS = 50;
const ROUNDS = 5;
const PER_ROUND = 200;
const WARMUP = 200;
const RUN_CAP_MS = 45_000;
const HEAVY_ROOMS = 50;
const HEAVY_UNREAD = 2_000;
const HEAVY_HIDDEN = 20; // per heavy room

/** 1,000 GROUP rooms with a writer and the reader; every third room has two messages the reader has not read. */
export async function seed(p: TestPlatform, readerId: string, writerId: string): Promise<void> {
  const ids = `md5('list:' || $1::text || ':' || g)::uuid`;
  await p.db.query(
    `insert into rooms (id, type, name, add_member_policy, created_by, member_count, last_seq, created_at, last_activity_at)
     select ${ids}, 'GROUP', 'list room ' || g, 'ALL_MEMBERS', $2, 2, $3, now() - interval '30 days', now() - make_interval(mins => g)
       from generate_series(1, $4::int) g`,
    [readerId, writerId, MESSAGES_PER_ROOM, ROOMS],
  );
  await p.db.query(
    `insert into room_members (room_id, account_id, role, joined_at, last_read_seq, pinned, pinned_at)
     select ${ids}, $1::uuid, 'MEMBER', now() - interval '30 days', case when g % 3 = 0 then 1 else $3 end, g % 200 = 0,
            case when g % 200 = 0 then now() - make_interval(mins => g) end
       from generate_series(1, $4::int) g
     union all
     select ${ids}, $2::uuid, 'OWNER', now() - interval '30 days', $3, false, null from generate_series(1, $4::int) g`,
    [readerId, writerId, MESSAGES_PER_ROOM, ROOMS],
  );
  await p.db.query(
    `insert into messages (id, room_id, seq, sender_id, type, text, created_at)
     select md5(r.id::text || ':' || s)::uuid, r.id, s, $2, 'TEXT', 'room list message ' || s, r.last_activity_at - make_interval(secs => $3 - s)
       from rooms r cross join generate_series(1, $3::int) s
      where r.id in (select room_id from room_members where account_id = $1)`,
    [readerId, writerId, MESSAGES_PER_ROOM],
  );
}

/** The heavy reader: nothing read anywhere, and HEAVY_UNREAD more messages in each of its most recent rooms. */
export async function seedHeavy(p: TestPlatform, readerId: string, writerId: string): Promise<void> {
  await p.db.query('update room_members set last_read_seq = 0 where account_id = $1', [readerId]);
  // The rooms of the member's first page (pinned first, then most recent activity).
  const heavyRooms = `select m.room_id from room_members m join rooms r on r.id = m.room_id where m.account_id = $1
                       order by m.pinned desc, r.last_activity_at desc, r.id desc limit ${HEAVY_ROOMS}`;
  await p.db.query(
    `insert into messages (id, room_id, seq, sender_id, type, text, created_at)
     select md5(h.room_id::text || ':' || s)::uuid, h.room_id, s, $2, 'TEXT', 'unread message ' || s, now() - make_interval(secs => $3 + ${MESSAGES_PER_ROOM} + 1 - s)
       from (${heavyRooms}) h cross join generate_series(${MESSAGES_PER_ROOM + 1}, $3::int + ${MESSAGES_PER_ROOM}) s`,
    [readerId, writerId, HEAVY_UNREAD],
  );
  await p.db.query(`update rooms set last_seq = $2 where id in (${heavyRooms})`, [readerId, HEAVY_UNREAD + MESSAGES_PER_ROOM]);
  await p.db.query(
    `insert into message_hides (account_id, message_id, room_id, hidden_at)
     select $1, x.id, x.room_id, now() from messages x where x.room_id in (${heavyRooms}) and x.seq % (${HEAVY_UNREAD} / ${HEAVY_HIDDEN}) = 0`,
    [readerId],
  );
}

export async function benchRoomList(
  p: TestPlatform,
  tenant: TestTenant,
  load: LoadGenerator,
): Promise<{ lines: string[]; failures: string[]; goals: GoalRow[] }> {
  const failures: string[] = [];
  const [reader, writer, heavy] = await Promise.all([
    tenant.account({ displayName: 'List Reader' }),
    tenant.account({ displayName: 'List Writer' }),
    tenant.account({ displayName: 'List Heavy Reader' }),
  ]);
  progress(
    `room list: seeding 2 x ${ROOMS} rooms with ${MESSAGES_PER_ROOM} messages each, ${HEAVY_ROOMS} of them with ${HEAVY_UNREAD} more`,
  );
  await seed(p, reader.id, writer.id);
  await seed(p, heavy.id, writer.id);
  await seedHeavy(p, heavy.id, writer.id);
  await p.db.query('vacuum (analyze) rooms, room_members, messages, message_hides');

  // The later page's cursor comes from the API itself (cursors are opaque, possibly signed).
  const firstPath = `/api/v1/rooms?limit=${LIMIT}`;
  let laterPath = firstPath;
  for (let page = 1; page < LATER_PAGE; page++) {
    const res = await call(p.chatUrl, 'GET', laterPath, { token: reader.token });
    if (res.status !== 200 || res.body.data.length !== LIMIT || !res.body.meta.nextCursor) {
      failures.push(`room list: page ${page} answered HTTP ${res.status} with ${res.body?.data?.length} rooms and no next cursor`);
      return { lines: [], failures, goals: [] };
    }
    laterPath = `${firstPath}&cursor=${encodeURIComponent(res.body.meta.nextCursor)}`;
  }

  const pages = [
    { label: 'first page', path: firstPath, who: reader },
    { label: `page ${LATER_PAGE} (rooms ${(LATER_PAGE - 1) * LIMIT + 1}-${LATER_PAGE * LIMIT})`, path: laterPath, who: reader },
    { label: `first page, ${HEAVY_UNREAD.toLocaleString('en')} unread in each room`, path: firstPath, who: heavy },
  ];
  const heavyProbe = await call(p.chatUrl, 'GET', firstPath, { token: heavy.token });
  const expectedUnread = HEAVY_UNREAD + MESSAGES_PER_ROOM - HEAVY_HIDDEN;
  if (heavyProbe.status !== 200 || heavyProbe.body.data.some((r: { unreadCount: number }) => r.unreadCount !== expectedUnread)) {
    failures.push(
      `room list: the heavy reader's first page should show ${expectedUnread} unread in every room, got ${JSON.stringify(heavyProbe.body?.data?.map((r: { unreadCount: number }) => r.unreadCount)).slice(0, 200)}`,
    );
  }
  const captured: Statement[][] = [];
  for (const page of pages) {
    captured.push(await captureStatements(() => call(p.chatUrl, 'GET', page.path, { token: page.who.token })));
  }
  const cases: PairedCase[] = pages.map((page, i) => ({
    label: page.label,
    stack: {
      kind: 'http',
      targets: [{ url: `${p.chatUrl}${page.path}`, method: 'GET', headers: { authorization: `Bearer ${page.who.token}` } }],
      expect: 200,
      concurrency: 1,
      requests: PER_ROUND,
      warmup: 0,
      capMs: RUN_CAP_MS,
    },
    base: { kind: 'sql-replay', statements: captured[i]!, concurrency: 1, requests: PER_ROUND, warmup: 0, capMs: RUN_CAP_MS },
  }));
  const results = await measurePaired(load, cases, {
    rounds: ROUNDS,
    perRound: PER_ROUND,
    warmup: WARMUP,
    onRound: (r) => progress(`room list: round ${r + 1}/${ROUNDS}, ${PER_ROUND} requests per case, driver then stack`),
  });
  for (const r of results) checkPaired(r, 'room list', failures);

  const lines: string[] = [];
  lines.push(
    `4. ROOM LIST  GET ${firstPath} for a member of ${ROOMS.toLocaleString('en')} rooms (${MESSAGES_PER_ROOM} messages each, a third with unread messages, 5 pinned)`,
  );
  lines.push(
    `   and for a member of ${ROOMS.toLocaleString('en')} other rooms who read nothing, whose ${HEAVY_ROOMS} most recent rooms hold ${HEAVY_UNREAD.toLocaleString('en')} more messages each (${HEAVY_HIDDEN} hidden by it)`,
  );
  lines.push(
    `   concurrency 1; ${WARMUP} warm-up requests per case and side, then ${ROUNDS} interleaved rounds of ${PER_ROUND} (medians of rounds). driver = the statements the request ran on ` +
      "the platform's pg pool (captured during one request), replayed in order.",
  );
  lines.push('');
  lines.push(
    table(
      [
        'page',
        'requests',
        'stack p50',
        'stack p99',
        'driver p50',
        'driver p99',
        'p50 ratio',
        'p99 ratio',
        'stack req/s',
        'errors',
        `goal p99 <= ${GOAL_P99_MS} ms`,
      ],
      results.map((r) => [
        r.label,
        String(r.stack.count),
        ms(r.stack.p50),
        ms(r.stack.p99),
        ms(r.base.p50),
        ms(r.base.p99),
        `${r.p50Ratio.toFixed(2)}x`,
        `${r.p99Ratio.toFixed(2)}x`,
        rps(r.stack.throughput),
        String(r.stack.errors + r.base.errors),
        r.stack.p99 <= GOAL_P99_MS ? 'met' : 'NOT MET',
      ]),
    ),
  );
  pages.forEach((page, i) => {
    if (i === 1) return; // the same statement as the first page's
    lines.push(`   statements of the ${page.label}:`);
    for (const line of describeStatements(captured[i]!)) lines.push(`     ${line}`);
  });
  const goals: GoalRow[] = results.map((r) => ({
    name: `room list of a member of ${ROOMS.toLocaleString('en')} rooms, ${r.label}, p99`,
    ours: fmtMs(r.stack.p99),
    baseline: fmtMs(r.base.p99),
    ratio: fmtRatio(r.p99Ratio),
    goal: `<= ${GOAL_P99_MS} ms`,
    met: r.stack.p99 <= GOAL_P99_MS,
    values: { ours: r.stack.p99, baseline: r.base.p99, oursP50: r.stack.p50, baseP50: r.base.p50 },
  }));
  return { lines, failures, goals };
}
