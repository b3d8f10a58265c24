// Benchmark section: retention. 1,000,000 messages of one room past its retention are expired by the job's own
// function (src/chat/retention/prune.ts, batches of 500) while sends go to other rooms; the send p99 is measured in
// rounds alternating between expiry paused and expiry running. Goal: p99 with expiry <= 1.2x p99 without.
import { performance } from 'node:perf_hooks';
import { systemClock } from '../../src/platform/clock.js';
import { mediaStore } from '../../src/core/media/store.js';
import { expungeMessages } from '../../src/chat/expiry/expunge.js';
import { expiredMessages } from '../../src/chat/retention/expiry-queries.js';
import { call, type TestAccount, type TestPlatform } from '../support/platform.js';
import { ms, progress, table } from './report.js';
import { fmtMs, fmtRatio, type GoalRow } from './results.js';
import { median, summarize, type HttpTarget, type LoadGenerator, type RawResult } from './tasks.js';

const MESSAGES = Number(process.env.BENCH_EXPIRY_MESSAGES ?? 1_000_000);
const SEND_ROOMS = 8;
const PER_ROUND = 600;
const MAX_ROUNDS = 8;
const GOAL_RATIO = 1.2;

/** Expires batch after batch until nothing is left; `paused` holds it between batches. */
function expiryLoop(p: TestPlatform) {
  const deps = { sql: p.db, media: mediaStore(p.config.media, p.config.dataDir), clock: systemClock };
  const state = { paused: true, deleted: 0, done: false, batchMs: [] as number[] };
  const finished = (async () => {
    for (;;) {
      if (state.paused) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      const started = performance.now();
      const ids = await expiredMessages(deps.sql, deps.clock.now(), 500);
      if (ids.length === 0) break;
      state.deleted += await expungeMessages(deps, ids, 'retention');
      state.batchMs.push(performance.now() - started);
    }
    state.done = true;
  })();
  return { state, finished };
}

export async function benchExpiry(
  p: TestPlatform,
  alice: TestAccount,
  sendRooms: string[],
  idFn: string,
  load: LoadGenerator,
): Promise<{ lines: string[]; failures: string[]; goals: GoalRow[] }> {
  const failures: string[] = [];
  const created = await call(p.chatUrl, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'expiring' } });
  const roomId = created.body.data.id as string;
  progress(`expiry: seeding ${MESSAGES.toLocaleString('en')} messages 400 days old`);
  for (let first = 1; first <= MESSAGES; first += 100_000) {
    await p.db.query(
      `insert into messages (id, room_id, seq, sender_id, type, text, created_at)
       select ${idFn}, $1, g, $2, 'TEXT', 'expiring message number ' || g, now() - interval '400 days' + make_interval(secs => g)
         from generate_series($3::int, least($3::int + 99999, $4::int)) g`,
      [roomId, alice.id, first, MESSAGES],
    );
  }
  await p.db.query('update rooms set last_seq = $2 where id = $1', [roomId, MESSAGES]);
  await p.db.query('vacuum (analyze) messages, rooms');
  const set = await call(p.chatUrl, 'PUT', `/api/v1/rooms/${roomId}/retention`, { token: alice.token, body: { days: 30 } });
  if (set.status !== 200) failures.push(`expiry: PUT retention answered ${set.status}`);

  const targets: HttpTarget[] = sendRooms.slice(0, SEND_ROOMS).map((id) => ({
    url: `${p.chatUrl}/api/v1/rooms/${id}/messages`,
    method: 'POST',
    headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'send beside expiry' }),
  }));
  const task = { kind: 'http' as const, targets, expect: 201, concurrency: SEND_ROOMS, requests: PER_ROUND, warmup: 0, capMs: 45_000 };
  await load.run({ ...task, requests: 300 });

  const expiry = expiryLoop(p);
  const runs = { off: [] as RawResult[], on: [] as RawResult[] };
  const ratios: number[] = [];
  const started = performance.now();
  for (let round = 0; round < MAX_ROUNDS && !expiry.state.done; round++) {
    const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    const pair: Partial<Record<'off' | 'on', RawResult>> = {};
    for (const side of order) {
      expiry.state.paused = side === 'off';
      pair[side] = await load.run(task);
      runs[side].push(pair[side]);
    }
    expiry.state.paused = true;
    ratios.push(summarize([pair.on!]).p99 / summarize([pair.off!]).p99);
    progress(`expiry: round ${round + 1}, ${expiry.state.deleted.toLocaleString('en')} expired`);
  }
  // The rest of the million without load, so the section reports the whole expiry.
  expiry.state.paused = false;
  await expiry.finished;
  const totalS = (performance.now() - started) / 1000;
  const left = Number((await p.db.query('select count(*) as n from messages where room_id = $1', [roomId])).rows[0].n);
  if (left !== 0) failures.push(`expiry: ${left} messages left after the job`);
  for (const r of [...runs.on, ...runs.off]) if (r.errors > 0) failures.push(`expiry: send errors: ${r.firstError}`);

  const [off, on] = [summarize(runs.off), summarize(runs.on)];
  const ratio = median(ratios);
  const lines = [
    `EXPIRY  ${MESSAGES.toLocaleString('en')} messages of one room past its retention, expired in batches of 500 (src/chat/retention/prune.ts)`,
    `   while ${SEND_ROOMS} senders send to ${SEND_ROOMS} other rooms; ${runs.on.length} rounds of ${PER_ROUND} sends, expiry paused and running in turn.`,
    '',
    table(
      ['send', 'p50', 'p99', 'req/s'],
      [
        ['without expiry', ms(off.p50), ms(off.p99), off.throughput.toFixed(0)],
        ['with expiry', ms(on.p50), ms(on.p99), on.throughput.toFixed(0)],
      ],
    ),
    `   p99 ratio (median of per-round ratios) ${ratio.toFixed(2)}x; batch p50 ${ms(median(expiry.state.batchMs))}, ` +
      `${(MESSAGES - left).toLocaleString('en')} expired in ${totalS.toFixed(0)} s ` +
      `(${expiry.state.deleted.toLocaleString('en')} by the measured loop, the rest by the platform's own expire-messages job beside it).`,
  ];
  return {
    lines,
    failures,
    goals: [
      {
        name: 'send p99 while 1,000,000 messages expire',
        ours: fmtMs(on.p99),
        baseline: fmtMs(off.p99),
        ratio: fmtRatio(ratio),
        goal: `<= ${GOAL_RATIO}x`,
        met: ratio <= GOAL_RATIO,
        values: { ours: on.p99, baseline: off.p99, ratio },
      },
    ],
  };
}
