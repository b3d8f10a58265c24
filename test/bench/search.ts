// Benchmark section: message search. 1,000,000 messages in 1,000 rooms (words drawn from a 5,000-word vocabulary
// with a skewed, Zipf-like frequency, as natural text has), a searcher who is a member of 100 of the rooms; a
// two-word query of mid-frequency words and one of a frequent and a rare word, newest first and by relevance, through
// the stack and as the statements the request ran, replayed through the driver. Goal: p50 <= 20 ms, p99 <= 100 ms.
import { call, type TestPlatform, type TestTenant } from '../support/platform.js';
import { captureStatements, describeStatements, type Statement } from './capture.js';
import { ms, progress, rps, table } from './report.js';
import { fmtMs, fmtRatio, type GoalRow } from './results.js';
import { checkPaired, measurePaired, type PairedCase } from './rounds.js';
import type { LoadGenerator } from './tasks.js';

const ROOMS = 1_000;
const MEMBER_OF = 100;
const MESSAGES_PER_ROOM = 1_000;
const VOCABULARY = 5_000;
const WORDS_PER_MESSAGE = 8;
const GOAL_P50_MS = 20;
const GOAL_P99_MS = 100;
const ROUNDS = 5;
const PER_ROUND = 100;
const WARMUP = 100;
const RUN_CAP_MS = 60_000;

/**
 * Word k of the vocabulary is `v<k>`; each word of a message is v<floor(VOCABULARY * u^3)> for a uniform u, so low k
 * are frequent (v0 is in about a fifth of the messages) and high k rare.
 */
async function seed(p: TestPlatform, searcherId: string, writerId: string): Promise<void> {
  const roomId = `md5('search:' || $1::text || ':' || g)::uuid`;
  await p.db.query(
    `insert into rooms (id, type, name, add_member_policy, created_by, member_count, last_seq, created_at, last_activity_at)
     select ${roomId}, 'GROUP', 'search room ' || g, 'ALL_MEMBERS', $2, 2, $3, now() - interval '30 days', now()
       from generate_series(1, $4::int) g`,
    [searcherId, writerId, MESSAGES_PER_ROOM, ROOMS],
  );
  await p.db.query(
    `insert into room_members (room_id, account_id, role, joined_at, last_read_seq)
     select ${roomId}, $2::uuid, 'OWNER', now() - interval '30 days', $3::bigint from generate_series(1, $4::int) g
     union all
     select ${roomId}, $1::uuid, 'MEMBER', now() - interval '30 days', $3::bigint from generate_series(1, $4::int, $5::int) g`,
    [searcherId, writerId, MESSAGES_PER_ROOM, ROOMS, ROOMS / MEMBER_OF],
  );
  // In slices of 100 rooms, so no single statement holds the whole million in memory.
  for (let first = 1; first <= ROOMS; first += 100) {
    await p.db.query(
      `insert into messages (id, room_id, seq, sender_id, type, text, created_at)
       select md5('search message:' || r.g || ':' || s)::uuid, md5('search:' || $1::text || ':' || r.g)::uuid, s, $2, 'TEXT',
              (select string_agg('v' || floor($4::int * power(random(), 3))::int, ' ') from generate_series(1, $5::int) w where w > s * 0),
              now() - make_interval(secs => ($3 - s) * 60 + r.g)
         from generate_series($6::int, $6::int + 99) r(g) cross join generate_series(1, $3::int) s`,
      [searcherId, writerId, MESSAGES_PER_ROOM, VOCABULARY, WORDS_PER_MESSAGE, first],
    );
    progress(`search: ${((first + 99) * MESSAGES_PER_ROOM).toLocaleString('en')} messages`);
  }
}

export async function benchSearch(
  p: TestPlatform,
  tenant: TestTenant,
  load: LoadGenerator,
): Promise<{ lines: string[]; failures: string[]; goals: GoalRow[] }> {
  const failures: string[] = [];
  const [searcher, writer] = await Promise.all([
    tenant.account({ displayName: 'Searcher' }),
    tenant.account({ displayName: 'Search Writer' }),
  ]);
  progress(`search: seeding ${ROOMS} rooms x ${MESSAGES_PER_ROOM} messages, the searcher a member of ${MEMBER_OF}`);
  await seed(p, searcher.id, writer.id);
  await p.db.query('vacuum (analyze) rooms, room_members, messages');
  const { rows: sizes } = await p.db.query<{ size: string }>("select pg_size_pretty(pg_relation_size('messages_search')) as size");

  const queries = [
    { label: 'two mid-frequency words, newest', q: 'v40 v60', order: 'newest' },
    { label: 'two mid-frequency words, relevance', q: 'v40 v60', order: 'relevance' },
    { label: 'a frequent and a rare word, newest', q: 'v1 v3000', order: 'newest' },
    // The worst case: thousands of matches in the caller's rooms, all ranked or sorted before the first page.
    { label: 'two frequent words, newest', q: 'v1 v2', order: 'newest' },
    { label: 'two frequent words, relevance', q: 'v1 v2', order: 'relevance' },
  ];
  const paths = queries.map((x) => `/api/v1/search/messages?${new URLSearchParams({ q: x.q, order: x.order, limit: '20' })}`);
  // Matches in the searcher's rooms, counted once with the service's own condition.
  const hits: number[] = [];
  for (const [i, path] of paths.entries()) {
    const res = await call(p.chatUrl, 'GET', path, { token: searcher.token });
    if (res.status !== 200) failures.push(`search: ${path} answered HTTP ${res.status}`);
    const { rows } = await p.db.query<{ n: number }>(
      `select count(*)::int as n from messages x join room_members m on m.room_id = x.room_id and m.account_id = $1
        where to_tsvector('simple'::regconfig, x.text) @@ plainto_tsquery('simple'::regconfig, $2) and x.text is not null and x.recalled_at is null`,
      [searcher.id, queries[i]!.q],
    );
    hits.push(rows[0]!.n);
  }
  const captured: Statement[][] = [];
  for (const path of paths) captured.push(await captureStatements(() => call(p.chatUrl, 'GET', path, { token: searcher.token })));
  const cases: PairedCase[] = queries.map((x, i) => ({
    label: x.label,
    stack: {
      kind: 'http',
      targets: [{ url: `${p.chatUrl}${paths[i]}`, method: 'GET', headers: { authorization: `Bearer ${searcher.token}` } }],
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
    onRound: (r) => progress(`search: round ${r + 1}/${ROUNDS}, ${PER_ROUND} requests per case, driver then stack`),
  });
  for (const r of results) checkPaired(r, 'search', failures);

  const met = (r: (typeof results)[number]) => r.stack.p50 <= GOAL_P50_MS && r.stack.p99 <= GOAL_P99_MS;
  const lines: string[] = [];
  lines.push(
    `5. SEARCH  GET /api/v1/search/messages over ${(ROOMS * MESSAGES_PER_ROOM).toLocaleString('en')} messages in ${ROOMS.toLocaleString('en')} rooms ` +
      `(${WORDS_PER_MESSAGE} words each from ${VOCABULARY.toLocaleString('en')}, skewed), a member of ${MEMBER_OF}; limit 20; index messages_search ${sizes[0]?.size}`,
  );
  lines.push(
    `   concurrency 1; ${WARMUP} warm-up requests per case and side, then ${ROUNDS} interleaved rounds of ${PER_ROUND} (medians of rounds). driver = the statements the request ran, replayed.`,
  );
  lines.push('');
  lines.push(
    table(
      [
        'query',
        'matches',
        'stack p50',
        'stack p99',
        'driver p50',
        'driver p99',
        'p50 ratio',
        'stack req/s',
        'errors',
        `goal p50 <= ${GOAL_P50_MS}, p99 <= ${GOAL_P99_MS} ms`,
      ],
      results.map((r, i) => [
        `${r.label} (${queries[i]!.q})`,
        String(hits[i]),
        ms(r.stack.p50),
        ms(r.stack.p99),
        ms(r.base.p50),
        ms(r.base.p99),
        `${r.p50Ratio.toFixed(2)}x`,
        rps(r.stack.throughput),
        String(r.stack.errors + r.base.errors),
        met(r) ? 'met' : 'NOT MET',
      ]),
    ),
  );
  lines.push('   statements of the first query:');
  for (const line of describeStatements(captured[0]!)) lines.push(`     ${line}`);
  const goals: GoalRow[] = results.map((r) => ({
    name: `search of 1M messages, ${r.label}, p50 / p99`,
    ours: `${fmtMs(r.stack.p50)} / ${fmtMs(r.stack.p99)}`,
    baseline: `${fmtMs(r.base.p50)} / ${fmtMs(r.base.p99)}`,
    ratio: fmtRatio(r.p50Ratio),
    goal: `p50 <= ${GOAL_P50_MS} ms, p99 <= ${GOAL_P99_MS} ms`,
    met: met(r),
    values: { ours: r.stack.p99, baseline: r.base.p99, oursP50: r.stack.p50, baseP50: r.base.p50 },
  }));
  return { lines, failures, goals };
}
