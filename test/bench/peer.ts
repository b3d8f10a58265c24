// `make bench-peer`: the platform's message send and history page beside Synapse's (a real Matrix homeserver) on
// the same machine, the same PostgreSQL server and the same load generator (a separate process): send at
// concurrency 1, 8 and 32, a history page of 50 at concurrency 1 and 8; both single process; medians of rounds of
// PEER_RUN_MS (default 3 rounds of 10 s). Goal: ours >= 10x Synapse's throughput on every row. Not part of make test.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { call, startTestPlatform } from '../support/platform.js';
import { cleanups, progress, runBenchmark, scratchInfra, table } from './report.js';
import { benchDir, fmtMs, fmtRatio, fmtRps, loadNow } from './results.js';
import { checkPaired, measurePaired, type PairedCase } from './rounds.js';
import { startSynapse } from './synapse.js';
import { startLoadGenerator, type HttpTarget, type LoadTask } from './tasks.js';
import { startChildPlatform } from '../support/child-platform.js';

const ROUNDS = Number(process.env.PEER_ROUNDS ?? 3);
const RUN_MS = Number(process.env.PEER_RUN_MS ?? 10_000);
const WARMUP = 200;
const PAGE = 50;
const GOAL = 10;
const WORKERS = Number(process.env.PEER_WORKERS ?? 2);
const TEXT = 'benchmark message: the quick brown fox jumps over the lazy dog';
const python = process.env.SYNAPSE_PYTHON ?? join('.tools', 'synapse', 'bin', 'python');

async function main(): Promise<number> {
  const { databaseUrl, redisUrl } = await scratchInfra('platform-peer-');
  const platform = await startTestPlatform();
  cleanups.push(() => platform.stop());
  const alice = await (await platform.tenant()).account({ displayName: 'Bench Alice' });
  const created = await call(platform.chatUrl, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Peer' } });
  const roomId = created.body.data.id as string;

  const synapse = await startSynapse(python, join(benchDir(), 'synapse'), databaseUrl, progress);
  cleanups.push(() => synapse.stop());
  const load = startLoadGenerator(databaseUrl);
  cleanups.push(() => load.close());

  // Both rooms hold more than a page before the history runs (the send runs come first and add many more).
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const oursSend = (base: string) => ({
    url: `${base}/api/v1/rooms/${roomId}/messages`,
    method: 'POST',
    headers: auth(alice.token),
    body: JSON.stringify({ text: TEXT }),
  });
  const peerSend = {
    url: `${synapse.url}/_matrix/client/v3/rooms/${encodeURIComponent(synapse.roomId)}/send/m.room.message/t{n}`,
    method: 'PUT',
    headers: auth(synapse.token),
    body: JSON.stringify({ msgtype: 'm.text', body: TEXT }),
  };
  const oursPage = (base: string) => ({
    url: `${base}/api/v1/rooms/${roomId}/messages?limit=${PAGE}`,
    method: 'GET',
    headers: { authorization: `Bearer ${alice.token}` },
  });
  const peerPage = {
    url: `${synapse.url}/_matrix/client/v3/rooms/${encodeURIComponent(synapse.roomId)}/messages?dir=b&limit=${PAGE}`,
    method: 'GET',
    headers: { authorization: `Bearer ${synapse.token}` },
  };
  const task = (concurrency: number, target: HttpTarget, expect: number, unique = false): LoadTask => ({
    kind: 'http',
    targets: [target],
    expect,
    unique,
    concurrency,
    requests: 10_000_000,
    warmup: 0,
    capMs: RUN_MS,
  });
  const cases = (base: string): PairedCase[] => [
    ...[1, 8, 32].map((c) => ({ label: `send c=${c}`, stack: task(c, oursSend(base), 201), base: task(c, peerSend, 200, true) })),
    ...[1, 8].map((c) => ({ label: `history page of ${PAGE} c=${c}`, stack: task(c, oursPage(base), 200), base: task(c, peerPage, 200) })),
  ];
  const failures: string[] = [];
  const measure = async (title: string, base: string) => {
    progress(`${title}: ${ROUNDS} rounds of ${RUN_MS / 1000} s per side (load ${loadNow().join(' ')})`);
    const results = await measurePaired(load, cases(base), {
      rounds: ROUNDS,
      perRound: 10_000_000,
      warmup: WARMUP,
      onRound: (r) => progress(`round ${r + 1}/${ROUNDS}`),
    });
    for (const r of results) checkPaired(r, `peer (${title})`, failures);
    const rows = results.map((r) => [
      r.label,
      fmtRps(r.stack.throughput),
      fmtRps(r.base.throughput),
      fmtRatio(r.throughputRatio),
      fmtMs(r.stack.p50),
      fmtMs(r.base.p50),
      `>= ${GOAL}x`,
      r.throughputRatio >= GOAL ? 'yes' : 'NO',
    ]);
    process.stdout.write(
      `\n${title} beside Synapse (single process), same PostgreSQL server and load generator; load ${loadNow().join(' ')}\n`,
    );
    process.stdout.write(`${table(['case', 'ours', 'synapse', 'ratio', 'ours p50', 'synapse p50', 'goal', 'met'], rows)}\n`);
    return results.map((r) => ({
      name: r.label,
      ours: r.stack,
      synapse: r.base,
      ratio: r.throughputRatio,
      goal: GOAL,
      met: r.throughputRatio >= GOAL,
    }));
  };
  const single = await measure('Ours (single process)', platform.chatUrl);
  // The same again with ours as a cluster of PEER_WORKERS processes (node dist/src/main.js) on the same database.
  const clustered = await startChildPlatform({
    dataDir: join(benchDir(), 'peer-cluster'),
    env: { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, WORKERS: String(WORKERS), LOG_LEVEL: 'warn' },
  });
  cleanups.push(async () => {
    clustered.proc.kill('SIGTERM');
    await clustered.exited;
  });
  const multi = await measure(`Ours (WORKERS=${WORKERS})`, clustered.chatUrl);
  await mkdir(benchDir(), { recursive: true });
  await writeFile(
    join(benchDir(), 'peer.json'),
    JSON.stringify(
      { at: new Date().toISOString(), rounds: ROUNDS, runMs: RUN_MS, single, workers: WORKERS, clustered: multi, failures },
      null,
      2,
    ),
  );
  for (const f of failures) process.stderr.write(`FAILED: ${f}\n`);
  return failures.length > 0 ? 1 : 0;
}

await runBenchmark(main);
