// Benchmark of the partner and workspace APIs: the partner list of leads (limit 100) through the full stack against
// the same list query issued directly through the pg driver, and what each key gate adds per request, measured
// against a second listener of the same interface in this process whose gate parts are no-ops:
//   partner (convention A): rate counter by IP in Redis + key lookup + surface + scope;
//   workspace (convention B): key lookup + IP allow-list + rate counter by workspace in Redis + scope.
// Load from a separate node process; warm-up, interleaved rounds, medians. Starts its own embedded PostgreSQL and
// redis-server in a temporary folder and removes them at the end. Run with `make bench` (node
// dist/test/bench/partner.js). Exits 0 when every request succeeded; goal rows go to .data/bench/sections/.
import { availableParallelism } from 'node:os';
import { AccountCache } from '../../src/core/auth/account-cache.js';
import { VerifyKeyCache } from '../../src/core/auth/verify-key-cache.js';
import { insertCrmRecords } from '../../src/core/crm/records.js';
import { IdempotencyStore } from '../../src/partner/idempotency/store.js';
import { buildPartnerListener } from '../../src/partner/listener.js';
import { systemClock } from '../../src/platform/clock.js';
import { openOrm } from '../../src/platform/db/orm.js';
import { createSqlPool } from '../../src/platform/db/sql.js';
import { createLogger } from '../../src/platform/logger.js';
import { checkReadiness } from '../../src/platform/readiness.js';
import { connectRedis } from '../../src/platform/redis.js';
import { buildWorkspaceListener } from '../../src/workspace/listener.js';
import { createWebhookEngine } from '../../src/core/webhooks/engine.js';
import { startTestPlatform } from '../support/platform.js';
import { testWorkspace } from '../support/partner.js';
import { svcWorkspace } from '../support/workspace.js';
import { cleanups, elapsed, ms, progress, rps, runBenchmark, scratchInfra, table } from './report.js';
import { fmtMs, fmtRatio, fmtRps, loadNow, writeSection, type GoalRow } from './results.js';
import { checkPaired, measurePaired, type PairedCase, type PairedResult } from './rounds.js';
import { startLoadGenerator, type LoadTask } from './tasks.js';

const LEADS = 10_000;
const LIST_LIMIT = 100;
const SVC_LIST_LIMIT = 20;
const CONCURRENCIES = [1, 8];
const ROUNDS = 5;
const PER_ROUND = 500;
const WARMUP = 300;
const RUN_CAP_MS = 45_000;
const LIST_RATIO_GOAL = 0.6;
const GATE_GOAL_MS = 0.3;

async function main(): Promise<number> {
  const { databaseUrl, redisUrl } = await scratchInfra('partner-bench-');
  const orm = await openOrm({ databaseUrl });
  cleanups.push(() => orm.close());

  // The real listeners (rate limits high enough never to refuse: the gates still count every request).
  const platform = await startTestPlatform({
    services: ['partner', 'workspace'],
    rateLimitPerMinute: 100_000_000,
    rateLimitPerDay: 1_000_000_000,
  });
  cleanups.push(() => platform.stop());
  const ws = await testWorkspace(platform);
  const { key, id: keyId, prefix } = await ws.key(['crm_leads:read']);
  const svc = await svcWorkspace(platform, { plan: 'enterprise', perHour: 1_000_000_000, perMinute: 1_000_000_000 });
  const svcKey = await svc.key(['crm.leads.read']);
  progress(`seeding ${LEADS} leads in each of two workspaces`);
  const seed = Array.from({ length: LEADS }, (_, i) => ({
    full_name: `Lead ${i}`,
    email: `lead${i}@example.com`,
    source: 'bench',
    status: i % 3 ? 'new' : 'qualified',
  }));
  for (const workspaceId of [ws.id, svc.id]) {
    for (let i = 0; i < seed.length; i += 2_000)
      await insertCrmRecords(platform.db, { workspaceId, environment: 'live' }, 'leads', seed.slice(i, i + 2_000));
  }
  await platform.db.query('vacuum (analyze) crm_records');
  const { rows: leadRows } = await platform.db.query<{ id: string }>(
    "select id from crm_records where workspace_id = $1 and environment = 'live' limit 1",
    [svc.id],
  );
  const leadId = leadRows[0]!.id;

  // The same listeners with no-op gate parts: what remains is routing, validation, the scope check and the handler.
  const sql = createSqlPool(databaseUrl);
  cleanups.push(() => sql.end());
  const redis = connectRedis(redisUrl, 'bench');
  cleanups.push(async () => redis.disconnect());
  const common = {
    verifyKeys: new VerifyKeyCache(sql, redis, 60_000, systemClock),
    accounts: new AccountCache(sql, redis, 60_000, systemClock),
    log: createLogger('silent'),
    bodyLimit: 262_144,
    audience: 'chat',
    maxTokenLifetimeSeconds: 86_400,
    trustProxy: false,
    readiness: () => checkReadiness(sql, redis),
  };
  const config = { ...platform.config };
  const principal = { keyId, workspaceId: ws.id, environment: 'live' as const, prefix, scopes: ['crm_leads:read'] };
  const ungatedPartner = await buildPartnerListener({
    ...common,
    deps: { orm, sql, clock: systemClock, config },
    gate: {
      limiter: { hit: async () => ({ limit: 1, remaining: 1, reset: 60 }) },
      keys: { authenticate: async () => principal },
      lastUsed: { touch: () => undefined },
    },
    idempotency: new IdempotencyStore(sql, systemClock),
  });
  const ungatedPartnerUrl = await ungatedPartner.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => ungatedPartner.close());
  const found = {
    keyId: svcKey.id,
    workspaceId: svc.id,
    environment: 'live' as const,
    scopes: ['crm.leads.read'],
    ipAllowList: [] as string[],
    limits: { perHour: 1_000_000_000, perMinute: 1_000_000_000 },
    usable: true,
  };
  // The list cases write no events: the engine is there because the listener serves /webhooks too.
  const webhooks = await createWebhookEngine({ sql, redisUrl, clock: systemClock, log: common.log, settings: config.webhooks });
  cleanups.push(() => webhooks.close());
  const ungatedWorkspace = await buildWorkspaceListener({
    ...common,
    webhooks,
    deps: { orm, sql, clock: systemClock, config },
    keys: { find: async () => found },
    limiter: { hit: async () => ({ limit: 1, remaining: 1, reset: 60 }) },
    audit: { record: () => undefined },
  });
  const ungatedWorkspaceUrl = await ungatedWorkspace.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => ungatedWorkspace.close());

  const load = startLoadGenerator(databaseUrl);
  cleanups.push(() => load.close());
  const partnerHeaders = { 'x-api-key': key };
  const svcHeaders = { authorization: `Bearer ${svcKey.key}` };
  const run = (concurrency: number) => ({ concurrency, requests: PER_ROUND, warmup: 0, capMs: RUN_CAP_MS });
  const get = (url: string, headers: Record<string, string>, concurrency: number): LoadTask => ({
    kind: 'http',
    targets: [{ url, method: 'GET', headers }],
    expect: 200,
    ...run(concurrency),
  });
  const listPath = `/api/v1/partner/crm/leads?limit=${LIST_LIMIT}`;

  const listCases: PairedCase[] = CONCURRENCIES.map((c) => ({
    label: `partner list leads limit ${LIST_LIMIT}, concurrency ${c}`,
    stack: get(`${platform.partnerUrl}${listPath}`, partnerHeaders, c),
    base: { kind: 'sql-crm-page', workspaceId: ws.id, environment: 'live', resource: 'leads', limit: LIST_LIMIT, ...run(c) },
  }));
  const partnerGateCases: PairedCase[] = CONCURRENCIES.flatMap((c) =>
    [
      ['GET _me', '/api/v1/partner/crm/_me'],
      [`GET leads limit ${LIST_LIMIT}`, listPath],
    ].map(([label, path]) => ({
      label: `partner gate, ${label}, concurrency ${c}`,
      stack: get(`${platform.partnerUrl}${path}`, partnerHeaders, c),
      base: get(`${ungatedPartnerUrl}${path}`, partnerHeaders, c),
    })),
  );
  const svcGateCases: PairedCase[] = CONCURRENCIES.flatMap((c) =>
    [
      ['GET lead', `/api/v1/leads/${leadId}`],
      [`GET leads limit ${SVC_LIST_LIMIT}`, `/api/v1/leads?limit=${SVC_LIST_LIMIT}`],
    ].map(([label, path]) => ({
      label: `workspace gate, ${label}, concurrency ${c}`,
      stack: get(`${platform.workspaceUrl}${path}`, svcHeaders, c),
      base: get(`${ungatedWorkspaceUrl}${path}`, svcHeaders, c),
    })),
  );
  const cases = [...listCases, ...partnerGateCases, ...svcGateCases];
  const results = await measurePaired(load, cases, {
    rounds: ROUNDS,
    perRound: PER_ROUND,
    warmup: WARMUP,
    onRound: (r) => progress(`round ${r + 1}/${ROUNDS}, ${PER_ROUND} requests per case and side`),
  });
  const failures: string[] = [];
  for (const r of results) checkPaired(r, 'partner', failures);

  // Sanity: the list returns a full page and a cursor.
  const probe = await fetch(`${platform.partnerUrl}${listPath}`, { headers: partnerHeaders }).then(
    (r) => r.json() as Promise<{ data: unknown[]; has_more: boolean }>,
  );
  if (probe.data.length !== LIST_LIMIT || !probe.has_more)
    failures.push(`list sanity: expected ${LIST_LIMIT} leads and has_more, got ${probe.data.length}`);

  const row = (r: PairedResult, extra: string[] = []) => [
    r.label,
    String(r.stack.count),
    rps(r.stack.throughput),
    rps(r.base.throughput),
    `${r.throughputRatio.toFixed(2)}x`,
    ms(r.stack.p50),
    ms(r.base.p50),
    `${r.p50Ratio.toFixed(2)}x`,
    ms(r.stack.p99),
    ms(r.base.p99),
    ...extra,
  ];
  const header = ['case', 'requests', 'A req/s', 'B req/s', 'req/s A/B', 'A p50', 'B p50', 'p50 A/B', 'A p99', 'B p99'];
  const byLabel = (list: PairedCase[]) => results.filter((r) => list.some((c) => c.label === r.label));

  const out: string[] = [''];
  out.push('PARTNER AND WORKSPACE API BENCHMARK');
  out.push(
    `node ${process.version}, embedded PostgreSQL, local redis-server, ${availableParallelism()} CPU(s), load average at start ${loadNow().join(' ')}; ` +
      `load from a separate node process; ${LEADS} leads per workspace.`,
  );
  out.push(
    `${WARMUP} warm-up requests per case and side, then ${ROUNDS} interleaved rounds of ${PER_ROUND}; medians of rounds. Latencies in ms.`,
  );
  out.push('');
  out.push(`1. LIST  GET ${listPath} through the stack vs the service's page query (selectPage, limit+1 rows) through the driver`);
  out.push(
    '   stack = gate (Redis rate counter, key lookup, surface, scope) -> validation -> CrmService.list -> pg; driver = the query alone.',
  );
  out.push('');
  out.push(
    table(
      header.map((h) => h.replace(/\bA\b/, 'stack').replace(/\bB\b/, 'driver')),
      byLabel(listCases).map((r) => row(r)),
    ),
  );
  out.push('');
  out.push('2. GATES  the real listener (A) vs the same listener with no-op gate parts (B), same process, same requests');
  out.push(
    '   partner: one Redis script call (both rate windows) and one indexed key lookup; workspace: one indexed key lookup, the IP allow-list and',
  );
  out.push('   one Redis script call. The difference of p50 (median of per-round differences) is what the gate adds per request.');
  out.push('');
  out.push(
    table(
      [...header.map((h) => h.replace(/\bA\b/, 'gated').replace(/\bB\b/, 'no gate')), 'added p50 ms'],
      byLabel([...partnerGateCases, ...svcGateCases]).map((r) => row(r, [ms(r.p50Added)])),
    ),
  );
  out.push('');

  const goals: GoalRow[] = [];
  for (const r of byLabel(listCases)) {
    goals.push({
      name: r.label,
      ours: fmtRps(r.stack.throughput),
      baseline: fmtRps(r.base.throughput),
      ratio: fmtRatio(r.throughputRatio),
      goal: `>= ${LIST_RATIO_GOAL}x`,
      met: r.throughputRatio >= LIST_RATIO_GOAL,
      values: { ours: r.stack.throughput, baseline: r.base.throughput, ratio: r.throughputRatio },
    });
  }
  for (const r of byLabel([...partnerGateCases, ...svcGateCases]).filter((x) => x.label.endsWith('concurrency 1'))) {
    goals.push({
      name: `${r.label.replace(', concurrency 1', '')}, added p50 at concurrency 1`,
      ours: fmtMs(r.stack.p50),
      baseline: fmtMs(r.base.p50),
      ratio: fmtRatio(r.p50Ratio),
      goal: `added <= ${GATE_GOAL_MS} ms (added ${r.p50Added.toFixed(2)})`,
      met: r.p50Added <= GATE_GOAL_MS,
      values: { ours: r.stack.p50, baseline: r.base.p50, added: r.p50Added },
    });
  }
  if (failures.length > 0) out.push('FAILURES', ...failures.map((f) => `  ${f}`));
  else out.push(`All requests succeeded. Total run time ${elapsed()} (including setup); load average at end ${loadNow().join(' ')}.`);
  process.stdout.write(`${out.join('\n')}\n`);
  await writeSection('partner', goals, failures);
  return failures.length > 0 ? 1 : 0;
}

await runBenchmark(main);
