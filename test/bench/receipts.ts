// Benchmark: read receipts in a room of 100 members (goal: receipts of a message p99 <= 5 ms), and what readCount
// adds to a scroll page: the same room's page counted (at most 100 members) and not counted (its member count set
// past 100), in interleaved rounds, beside a floor of the same run: GET of one message (the same stack, one small
// statement), since on a shared machine the absolute figures mostly measure the neighbours. Sequential requests
// (one in flight) over HTTP from the separate load-generator process, so the client never shares the server's event
// loop; p50 and p99 in ms. Run with `node dist/test/bench/receipts.js` after a build (BENCH_RECEIPTS=n requests per
// case and round).
import { call, startTestPlatform, type TestAccount } from '../support/platform.js';
import { cleanups, ms, progress, runBenchmark, scratchInfra, table } from './report.js';
import { startLoadGenerator, type LoadGenerator } from './tasks.js';

const MEMBERS = 100;
const MESSAGES = 200;
const PER_ROUND = Number(process.env.BENCH_RECEIPTS ?? 500);
const ROUNDS = 4;
const GOAL_P99_MS = 5;

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

/** `times` GETs of the path, one at a time, from the load generator; their latencies are added to `into`. */
async function timed(load: LoadGenerator, url: string, token: string, times: number, into: number[]): Promise<void> {
  const target = { url, method: 'GET', headers: { authorization: `Bearer ${token}` } };
  const run = await load.run({ kind: 'http', targets: [target], expect: 200, concurrency: 1, requests: times, warmup: 0, capMs: 120_000 });
  if (run.errors > 0) throw new Error(`GET ${url}: ${run.errors} errors, first: ${run.firstError}`);
  into.push(...run.latencies);
}

async function main(): Promise<number> {
  const { databaseUrl } = await scratchInfra('receipts-bench-');
  const platform = await startTestPlatform({ services: ['chat'] });
  cleanups.push(() => platform.stop());
  const load = startLoadGenerator(databaseUrl);
  cleanups.push(() => load.close());
  const base = platform.chatUrl;
  const tenant = await platform.tenant();
  progress(`registering ${MEMBERS} accounts in one room (${databaseUrl})`);
  const accounts: TestAccount[] = [];
  for (let i = 0; i < MEMBERS; i++) accounts.push(await tenant.account());
  const owner = accounts[0]!;
  const created = await call(base, 'POST', '/api/v1/rooms', {
    token: owner.token,
    body: { type: 'GROUP', name: 'Receipts bench', memberIds: accounts.slice(1).map((a) => a.id) },
  });
  if (created.status !== 201) throw new Error(`create room: HTTP ${created.status} ${JSON.stringify(created.body)}`);
  const roomId = created.body.data.id as string;
  progress(`sending ${MESSAGES} messages; every member reads up to a message of its own`);
  const ids: string[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const sent = await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: owner.token, body: { text: `m${i}` } });
    ids.push(sent.body.data.id as string);
  }
  for (const [i, a] of accounts.slice(1).entries()) {
    await call(base, 'POST', `/api/v1/rooms/${roomId}/read`, { token: a.token, body: { messageId: ids[(i * 2 + 1) % MESSAGES] } });
  }
  const target = ids[MESSAGES / 2]!;
  const token = accounts[1]!.token;
  const receiptsUrl = `${base}/api/v1/rooms/${roomId}/messages/${target}/receipts`;
  const floorUrl = `${base}/api/v1/rooms/${roomId}/messages/${target}`;
  const scrollUrl = `${base}/api/v1/rooms/${roomId}/messages?limit=50`;
  const probe = await call(base, 'GET', `/api/v1/rooms/${roomId}/messages/${target}/receipts`, { token });
  progress(`receipts of the middle message list ${probe.body.data.length} readers`);

  const samples = { floor: [] as number[], receipts: [] as number[], counted: [] as number[], uncounted: [] as number[] };
  await timed(load, floorUrl, token, 500, []);
  await timed(load, receiptsUrl, token, 500, []);
  await timed(load, scrollUrl, token, 500, []);
  for (let r = 0; r < ROUNDS; r++) {
    progress(`round ${r + 1}/${ROUNDS}, ${PER_ROUND} requests per case`);
    await timed(load, floorUrl, token, PER_ROUND, samples.floor);
    await timed(load, receiptsUrl, token, PER_ROUND, samples.receipts);
    await platform.db.query('update rooms set member_count = $2 where id = $1', [roomId, MEMBERS]);
    await timed(load, scrollUrl, token, PER_ROUND, samples.counted);
    await platform.db.query('update rooms set member_count = $2 where id = $1', [roomId, MEMBERS + 1]);
    await timed(load, scrollUrl, token, PER_ROUND, samples.uncounted);
  }
  await platform.db.query('update rooms set member_count = $2 where id = $1', [roomId, MEMBERS]);
  const row = (label: string, v: number[]) => [label, String(v.length), ms(quantile(v, 0.5)), ms(quantile(v, 0.99))];
  process.stdout.write(
    table(
      ['case', 'requests', 'p50 ms', 'p99 ms'],
      [
        row('floor: GET of one message', samples.floor),
        row(`receipts of a message, room of ${MEMBERS}`, samples.receipts),
        row('scroll page of 50, readCount counted', samples.counted),
        row('scroll page of 50, not counted (> 100 members)', samples.uncounted),
      ],
    ) + '\n',
  );
  const p99 = quantile(samples.receipts, 0.99);
  process.stdout.write(`goal: receipts p99 <= ${GOAL_P99_MS} ms: ${p99 <= GOAL_P99_MS ? 'met' : 'missed'} (${ms(p99)} ms)\n`);
  return 0;
}

await runBenchmark(main);
