// Benchmark: what typed queries cost beside hand-written SQL (docs/adr/0119-typed-queries-over-entities.md). First the
// statement alone, no database: a constant text with its values (what hand-written SQL does), a typed query built and
// compiled each call (what the converted services do), and a typed query built once and compiled each call. Then the
// labels list (a cold path: the caller's labels with their room counts) end to end on one pool against a real
// PostgreSQL: hand-written text, typed query compiled and run on the pool (unnamed and as a named prepared statement),
// and the same typed query run through MikroORM's Kysely integration (em.getKysely()). CPU time of this process per
// query is the figure beside wall time: on a shared machine wall time mostly measures the neighbours. Medians of
// interleaved rounds. Run with `make bench-typed-queries` (BENCH_TYPED_QUERIES=n queries per round).
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { AccountEntity } from '../../src/core/accounts/entities.js';
import { ModuleEntity } from '../../src/core/modules/entities.js';
import { LabelEntity, RoomLabelEntity } from '../../src/chat/base/entities/labels.js';
import { RoomEntity } from '../../src/chat/base/entities/rooms.js';
import { chatDb, type ChatTables } from '../../src/chat/base/tables.js';
import { openOrm } from '../../src/platform/db/orm.js';
import { createSqlPool } from '../../src/platform/db/sql.js';
import { hotRows, rows } from '../../src/platform/db/typed.js';
import { prepared } from '../../src/platform/db/prepared.js';
import { progress, runBenchmark, scratchInfra, table } from './report.js';

const QUERIES = Number(process.env.BENCH_TYPED_QUERIES ?? 1_000);
const COMPILES = QUERIES * 20;
const ROUNDS = 5;
const LABELS = 50;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Cost {
  wall: number;
  cpu: number;
}

/** Wall and CPU microseconds per call of `work`, run `times` times one after another. */
async function cost(times: number, work: (i: number) => unknown): Promise<Cost> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < times; i++) await work(i);
  const used = process.cpuUsage(cpu);
  return { wall: ((performance.now() - started) * 1000) / times, cpu: (used.user + used.system) / times };
}

const rawText = `
  select l.id, l.owner_id, l.name, l.color, l.created_at, l.updated_at,
         (select count(*)::int from room_labels rl where rl.label_id = l.id) as room_count
    from labels l where l.owner_id = $1 order by lower(l.name), l.id`;

/** The converted LabelService.list statement, built from scratch. */
const typedList = (ownerId: string, db: Kysely<ChatTables> = chatDb) =>
  db
    .selectFrom('labels as l')
    .select(['l.id', 'l.owner_id', 'l.name', 'l.color', 'l.created_at', 'l.updated_at'])
    .select((eb) =>
      eb
        .selectFrom('room_labels as rl')
        .whereRef('rl.label_id', '=', 'l.id')
        .select(sql<number>`count(*)::int`.as('n'))
        .$asScalar()
        .as('room_count'),
    )
    .where('l.owner_id', '=', ownerId)
    .orderBy(sql`lower(l.name)`)
    .orderBy('l.id');

async function seed(client: pg.Client): Promise<string> {
  const ownerId = '00000000-0000-7000-8000-000000000001';
  await client.query(`insert into modules (code, name) values ('bench', 'Bench')`);
  await client.query(
    `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status)
     values ($1, 'bench', 'c1', 'Owner', 'USER', 'ACTIVE')`,
    [ownerId],
  );
  await client.query(
    `insert into labels (id, owner_id, name, color, created_at, updated_at)
     select ('00000000-0000-7000-9000-' || lpad(i::text, 12, '0'))::uuid, $1, 'label ' || i, '#A0A0A0', now(), now()
       from generate_series(1, ${LABELS}) i`,
    [ownerId],
  );
  return ownerId;
}

await runBenchmark(async () => {
  const { databaseUrl } = await scratchInfra('typed-queries-bench-');
  const setup = new pg.Client({ connectionString: databaseUrl });
  await setup.connect();
  const ownerId = await seed(setup);
  await setup.end();
  const pool = createSqlPool(databaseUrl, 2);
  const orm = await openOrm({ databaseUrl, poolMax: 2, entities: [ModuleEntity, AccountEntity, RoomEntity, LabelEntity, RoomLabelEntity] });
  try {
    const prebuilt = typedList(ownerId);
    let sink = 0;
    const compileCases: Array<[string, () => void]> = [
      ['constant text and values (hand-written SQL)', () => (sink += [rawText, [ownerId]].length)],
      ['typed query built and compiled', () => (sink += typedList(ownerId).compile().parameters.length)],
      ['typed query built once, compiled', () => (sink += prebuilt.compile().parameters.length)],
    ];
    const em = orm.em.fork();
    const viaOrm = () => em.getKysely<ChatTables>();
    const endToEnd: Array<[string, () => Promise<unknown>]> = [
      ['hand-written text on the pool', () => pool.query(rawText, [ownerId])],
      ['hand-written text, named prepared', () => pool.query(prepared(rawText, [ownerId]))],
      ['typed query on the pool (rows)', () => rows(pool, typedList(ownerId))],
      ['typed query, named prepared (hotRows)', () => hotRows(pool, typedList(ownerId))],
      ['typed query via em.getKysely()', () => typedList(ownerId, viaOrm()).execute()],
    ];
    // The ORM's Kysely returns the same rows (checked once, so a broken case cannot pass as fast).
    const check = await endToEnd[4]![1]();
    if (!Array.isArray(check) || check.length !== LABELS) throw new Error(`em.getKysely() returned ${JSON.stringify(check).slice(0, 200)}`);
    const typedCheck = await rows(pool, typedList(ownerId));
    if (typedCheck.length !== LABELS || typedCheck[0]!.room_count !== 0) throw new Error('the typed list returned other rows');

    progress(`warm-up, then ${ROUNDS} interleaved rounds: ${COMPILES} compiles and ${QUERIES} queries per case`);
    for (const [, work] of compileCases) await cost(COMPILES, work);
    for (const [, work] of endToEnd) await cost(QUERIES / 5, work);
    const compileCosts = compileCases.map((): Cost[] => []);
    const queryCosts = endToEnd.map((): Cost[] => []);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, [, work]] of compileCases.entries()) compileCosts[i]!.push(await cost(COMPILES, work));
      for (const [i, [, work]] of endToEnd.entries()) queryCosts[i]!.push(await cost(QUERIES, work));
    }
    if (sink < 0) throw new Error('unreachable');

    const summary = (label: string, costs: Cost[], base: Cost[]) => {
      const wall = median(costs.map((c) => c.wall));
      const cpu = median(costs.map((c) => c.cpu));
      const extra = cpu - median(base.map((c) => c.cpu));
      return [label, wall.toFixed(2), cpu.toFixed(2), `${extra >= 0 ? '+' : ''}${extra.toFixed(2)}`];
    };
    const headers = ['case', 'wall µs', 'CPU µs', 'CPU vs hand-written'];
    process.stdout.write(
      `\nStatement alone (no database; µs per statement, median of ${ROUNDS} rounds of ${COMPILES})\n\n` +
        table(
          headers,
          compileCases.map(([label], i) => summary(label, compileCosts[i]!, compileCosts[0]!)),
        ) +
        `\n\nLabels list end to end (${LABELS} labels with room counts, one pool of 2 connections; µs per query, median of ${ROUNDS} rounds of ${QUERIES})\n\n` +
        table(
          headers,
          endToEnd.map(([label], i) => summary(label, queryCosts[i]!, queryCosts[0]!)),
        ) +
        `\n\ncreated_at (typed Date) arrives as: ${typeof typedCheck[0]!.created_at === 'object' ? 'Date' : 'string'} on the pool, ` +
        `${typeof (check[0] as { created_at: unknown }).created_at === 'object' ? 'Date' : 'string'} through em.getKysely() ` +
        '(MikroORM keeps date and timestamp columns as text for its own hydration)\n',
    );
  } finally {
    await orm.close();
    await pool.end();
  }
  return 0;
});
