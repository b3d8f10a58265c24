// Benchmark of the partner API: the list of leads (limit 100) through the full stack against the same list query
// issued directly through the pg driver, and the key gate's added cost per request (rate counter in Redis + key
// lookup + surface + scope) measured against a second partner listener in the same process whose gate parts are
// no-ops. Starts its own embedded PostgreSQL and redis-server in a temporary folder and removes them at the end.
// Run with `make bench` (node dist/test/bench/partner.js). Prints tables; exits 0 when every request succeeded.
import { availableParallelism } from 'node:os';
import { AccountCache } from '../../src/chat/auth/account-cache.js';
import { VerifyKeyCache } from '../../src/chat/auth/verify-key-cache.js';
import { checkReadiness } from '../../src/platform/readiness.js';
import { insertCrmRecords } from '../../src/partner/crm/records.js';
import { IdempotencyStore } from '../../src/partner/idempotency/store.js';
import { buildPartnerListener } from '../../src/partner/listener.js';
import { systemClock } from '../../src/platform/clock.js';
import { openOrm } from '../../src/platform/db/orm.js';
import { createSqlPool } from '../../src/platform/db/sql.js';
import { createLogger } from '../../src/platform/logger.js';
import { connectRedis } from '../../src/platform/redis.js';
import { startTestPlatform } from '../support/platform.js';
import { testWorkspace } from '../support/partner.js';
import { cleanups, elapsed, ms, progress, ratio, rps, runBenchmark, scratchInfra, table } from './report.js';
import { startLoadWorker, summarize, type LoadResult, type LoadTask, type RawResult } from './tasks.js';

const LEADS = 10_000;
const LIST_LIMIT = 100;
const CONCURRENCIES = [1, 8];
const ROUNDS = 4; // cases interleaved round by round, so drift hits them all alike
const PER_ROUND = 500;
const WARMUP = 300;
const RUN_CAP_MS = 45_000;

interface Case {
  label: string;
  concurrency: number;
  a: LoadTask;
  b: LoadTask;
  aRuns: RawResult[];
  bRuns: RawResult[];
}

async function main(): Promise<number> {
  const { databaseUrl, redisUrl } = await scratchInfra('partner-bench-');
  const orm = await openOrm({ databaseUrl });
  cleanups.push(() => orm.close());

  // The real partner listener (rate limits high enough never to refuse: the gate still counts every request).
  const platform = await startTestPlatform({ services: ['partner'], rateLimitPerMinute: 100_000_000, rateLimitPerDay: 1_000_000_000 });
  cleanups.push(() => platform.stop());
  const ws = await testWorkspace(platform);
  const { key, id: keyId, prefix } = await ws.key(['crm_leads:read']);
  progress(`seeding ${LEADS} leads`);
  const seed = Array.from({ length: LEADS }, (_, i) => ({ full_name: `Lead ${i}`, email: `lead${i}@example.com`, source: 'bench', status: i % 3 ? 'new' : 'qualified' }));
  for (let i = 0; i < seed.length; i += 2_000) await insertCrmRecords(platform.db, { workspaceId: ws.id, environment: 'live' }, 'leads', seed.slice(i, i + 2_000));
  await platform.db.query('vacuum (analyze) crm_records');

  // The same listener with no-op gate parts: what remains is routing, validation, the scope check and the handler.
  const sql = createSqlPool(databaseUrl);
  cleanups.push(() => sql.end());
  const redis = connectRedis(redisUrl, 'bench');
  cleanups.push(async () => redis.disconnect());
  const principal = { keyId, workspaceId: ws.id, environment: 'live' as const, prefix, scopes: ['crm_leads:read'] };
  const ungated = await buildPartnerListener({
    deps: { orm, sql, clock: systemClock, config: { platformModule: 'platform' } },
    gate: {
      limiter: { hit: async () => ({ limit: 1, remaining: 1, reset: 60 }) },
      keys: { authenticate: async () => principal },
      lastUsed: { touch: () => undefined },
    },
    idempotency: new IdempotencyStore(sql, systemClock),
    verifyKeys: new VerifyKeyCache(orm, redis, 60_000, systemClock),
    accounts: new AccountCache(sql, redis, 60_000, systemClock),
    log: createLogger('silent'),
    bodyLimit: 262_144,
    audience: 'chat',
    maxTokenLifetimeSeconds: 86_400,
    trustProxy: false,
    readiness: () => checkReadiness(sql, redis),
  });
  const ungatedUrl = await ungated.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => ungated.close());

  const worker = startLoadWorker(databaseUrl);
  cleanups.push(() => worker.close());
  const headers = { 'x-api-key': key };
  const common = (concurrency: number) => ({ concurrency, requests: PER_ROUND, warmup: 0, capMs: RUN_CAP_MS });
  const listUrl = `/api/v1/partner/crm/leads?limit=${LIST_LIMIT}`;

  const listCases: Case[] = CONCURRENCIES.map((c) => ({
    label: `list leads limit ${LIST_LIMIT}`,
    concurrency: c,
    a: { kind: 'http-get', url: `${platform.partnerUrl}${listUrl}`, headers, ...common(c) },
    b: { kind: 'sql-crm-page', workspaceId: ws.id, environment: 'live', resource: 'leads', limit: LIST_LIMIT, ...common(c) },
    aRuns: [],
    bRuns: [],
  }));
  const gateCases: Case[] = CONCURRENCIES.flatMap((c) =>
    [['GET _me', '/api/v1/partner/crm/_me'], [`GET leads limit ${LIST_LIMIT}`, listUrl]].map(([label, path]) => ({
      label: label!,
      concurrency: c,
      a: { kind: 'http-get', url: `${platform.partnerUrl}${path}`, headers, ...common(c) } as LoadTask,
      b: { kind: 'http-get', url: `${ungatedUrl}${path}`, headers, ...common(c) } as LoadTask,
      aRuns: [],
      bRuns: [],
    })),
  );
  const cases = [...listCases, ...gateCases];
  progress(`warm-up, ${WARMUP} requests per case and column`);
  for (const c of cases) {
    await worker.run({ ...c.a, requests: WARMUP });
    await worker.run({ ...c.b, requests: WARMUP });
  }
  for (let round = 0; round < ROUNDS; round++) {
    progress(`round ${round + 1}/${ROUNDS}, ${PER_ROUND} requests per case and column`);
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
      c.aRuns.push(await worker.run(c.a));
      c.bRuns.push(await worker.run(c.b));
    }
  }

  const failures: string[] = [];
  const summary = (c: Case) => {
    const a = summarize(c.aRuns);
    const b = summarize(c.bRuns);
    for (const [side, r] of [['a', a], ['b', b]] as const) {
      if (r.errors > 0 || r.count < 1) failures.push(`${c.label} c=${c.concurrency} (${side}): ${r.errors} errors; ${r.firstError ?? ''}`);
    }
    return { a, b };
  };
  const row = (c: Case, s: { a: LoadResult; b: LoadResult }) => [
    c.label,
    String(c.concurrency),
    String(s.a.count),
    rps(s.a.throughput),
    rps(s.b.throughput),
    ratio(s.a.throughput, s.b.throughput),
    ms(s.a.p50),
    ms(s.b.p50),
    ratio(s.a.p50, s.b.p50),
    ms(s.a.p99),
    ms(s.b.p99),
  ];
  const listRows = listCases.map((c) => row(c, summary(c)));
  const gateSummaries = gateCases.map((c) => ({ c, s: summary(c) }));
  const gateRows = gateSummaries.map(({ c, s }) => [...row(c, s), ms(s.a.p50 - s.b.p50)]);

  // Sanity: the list returns a full page and a cursor.
  const probe = await fetch(`${platform.partnerUrl}${listUrl}`, { headers }).then((r) => r.json() as Promise<{ data: unknown[]; has_more: boolean }>);
  if (probe.data.length !== LIST_LIMIT || !probe.has_more) failures.push(`list sanity: expected ${LIST_LIMIT} leads and has_more, got ${probe.data.length}`);

  const out: string[] = [''];
  out.push('PARTNER API BENCHMARK');
  out.push(`node ${process.version}, embedded PostgreSQL, local redis-server, ${availableParallelism()} CPU(s); load from a worker thread; ${LEADS} leads in one workspace.`);
  out.push(`${WARMUP} warm-up requests per case and column, then ${ROUNDS} interleaved rounds of ${PER_ROUND}. Latencies in ms.`);
  out.push('');
  out.push(`1. LIST  GET ${listUrl} through the stack vs the service's page query (selectPage, limit+1 rows) through the driver`);
  out.push('   stack = fetch -> gate (Redis rate counter, key lookup, surface, scope) -> validation -> CrmService.list -> pg; driver = the query alone.');
  out.push('');
  const headersRow = ['case', 'conc.', 'requests', 'A req/s', 'B req/s', 'req/s A/B', 'A p50', 'B p50', 'p50 A/B', 'A p99', 'B p99'];
  out.push(table(headersRow.map((h) => h.replace(/\bA\b/, 'stack').replace(/\bB\b/, 'driver')), listRows));
  out.push('');
  out.push('2. GATE  the real partner listener (A) vs the same listener with no-op gate parts (B), same process, same requests');
  out.push('   The difference is what the gate adds per request: one Redis script call (both rate windows) and one indexed key lookup.');
  out.push('');
  out.push(table([...headersRow.map((h) => h.replace(/\bA\b/, 'gated').replace(/\bB\b/, 'no gate')), 'added p50 ms'], gateRows));
  out.push('');
  if (failures.length > 0) out.push('FAILURES', ...failures.map((f) => `  ${f}`));
  else out.push(`All requests succeeded. Total run time ${elapsed()} (including setup).`);
  process.stdout.write(`${out.join('\n')}\n`);
  return failures.length > 0 ? 1 : 0;
}

await runBenchmark(main);
