// Benchmark section: PUT /api/v1/channels/{id}/rule for a RULE channel over a tenant of 10,000 accounts (goal:
// <= 1 s per call, the membership re-evaluated before the answer). Each round walks the same transitions (all
// 10,000 join, half leave, the halves swap, the same rule again, everyone leaves), through the stack on a channel
// without rooms and on a channel with one room (whose membership follows), and as the same set-based statement
// (rule update + evaluation) through the pg driver on a third channel. Every step's member count is checked.
import { performance } from 'node:perf_hooks';
import { evaluationSql } from '../../src/chat/channels/sync.js';
import type { Rule } from '../../src/chat/base/channel-access.js';
import { createSqlPool } from '../../src/platform/db/sql.js';
import { call, type TestPlatform, type TestTenant } from '../support/platform.js';
import { ms, progress, ratio, table } from './report.js';

const ACCOUNTS = 10_000;
const ROUNDS = 5;
const GOAL_MS = 1_000;

const nobody: Rule = { field: 'team', equals: 'nobody' };
const everyone: Rule = { not: { field: 'team', equals: 'nobody' } };
const oncall: Rule = {
  all: [
    { field: 'tags', contains: 'oncall' },
    { field: 'role', in: ['engineer', 'lead'] },
  ],
};
const offcall: Rule = {
  not: {
    all: [
      { field: 'tags', contains: 'oncall' },
      { field: 'role', in: ['engineer', 'lead'] },
    ],
  },
};

/** Seeded accounts: every second one is on call (tag oncall, role engineer); the owner has no metadata. */
const TRANSITIONS: Array<{ label: string; rule: Rule; members: number }> = [
  { label: 'nobody -> everyone (10,000 join)', rule: everyone, members: ACCOUNTS + 1 },
  { label: 'everyone -> on call (5,000 leave)', rule: oncall, members: ACCOUNTS / 2 + 1 },
  { label: 'on call -> off call (5,000 leave, 5,000 join)', rule: offcall, members: ACCOUNTS / 2 + 1 },
  { label: 'off call -> off call (no change)', rule: offcall, members: ACCOUNTS / 2 + 1 },
  { label: 'off call -> nobody (5,000 leave)', rule: nobody, members: 1 },
];

async function seed(p: TestPlatform, tenant: TestTenant): Promise<void> {
  await p.db.query(
    `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status, team, role, tags)
     select md5('rule-bench:' || g)::uuid, $1, $2, 'Rule bench ' || g, 'USER', 'ACTIVE', 'team-' || (g % 20),
            case when g % 2 = 0 then 'engineer' else 'sales' end,
            case when g % 2 = 0 then array['oncall', 'berlin'] else array['paris'] end
       from generate_series(1, $3::int) g`,
    [tenant.moduleCode, tenant.customer, ACCOUNTS],
  );
  await p.db.query('vacuum (analyze) accounts');
}

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { p50: sorted[Math.floor((sorted.length - 1) / 2)]!, max: sorted[sorted.length - 1]! };
};

export async function benchChannels(p: TestPlatform): Promise<{ lines: string[]; failures: string[] }> {
  const failures: string[] = [];
  const tenant = await p.tenant();
  const owner = await tenant.account({ displayName: 'Rule owner' });
  progress(`channels: seeding ${ACCOUNTS.toLocaleString('en')} accounts of one tenant`);
  await seed(p, tenant);

  const api = (method: string, path: string, body?: unknown) =>
    call(p.chatUrl, method, `/api/v1${path}`, { token: owner.token, ...(body === undefined ? {} : { body }) });
  const channel = async (name: string): Promise<string> => {
    const res = await api('POST', '/channels', { name, membershipMode: 'RULE', rule: nobody });
    if (res.status !== 201) throw new Error(`create channel: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id;
  };
  const [plain, withRoom, driverChannel] = [
    await channel('bench plain'),
    await channel('bench with a room'),
    await channel('bench driver'),
  ];
  const room = await api('POST', '/rooms', { type: 'GROUP', name: 'bench channel room', channelId: withRoom });
  if (room.status !== 201) throw new Error(`create room: HTTP ${room.status}`);
  const roomId: string = room.body.data.id;

  const pool = createSqlPool(p.databaseUrl, 2);
  const driverPut = async (rule: Rule): Promise<void> => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('select 1 from channels where id = $1 for update', [driverChannel]);
      await client.query('update channels set rule = $2 where id = $1', [driverChannel, JSON.stringify(rule)]);
      const { text, values } = evaluationSql(
        { id: driverChannel, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, rule },
        new Date(),
      );
      await client.query(text, values);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
  };
  const memberCount = async (channelId: string) =>
    Number((await p.db.query<{ n: string }>('select count(*) as n from channel_members where channel_id = $1', [channelId])).rows[0]!.n);

  const times = TRANSITIONS.map(() => ({ plain: [] as number[], room: [] as number[], driver: [] as number[] }));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      progress(`channels: round ${round + 1}/${ROUNDS}, ${TRANSITIONS.length} rule changes per channel`);
      for (const [i, t] of TRANSITIONS.entries()) {
        let start = performance.now();
        await driverPut(t.rule);
        times[i]!.driver.push(performance.now() - start);
        for (const [key, id] of [
          ['plain', plain],
          ['room', withRoom],
        ] as const) {
          start = performance.now();
          const res = await api('PUT', `/channels/${id}/rule`, { rule: t.rule });
          times[i]![key].push(performance.now() - start);
          if (res.status !== 200) failures.push(`channels: PUT rule (${t.label}) answered HTTP ${res.status}`);
          else if (res.body.data.memberCount !== t.members)
            failures.push(`channels: ${t.label}: memberCount ${res.body.data.memberCount}, expected ${t.members}`);
        }
        for (const id of [plain, withRoom, driverChannel]) {
          const n = await memberCount(id);
          if (n !== t.members) failures.push(`channels: ${t.label}: ${n} member rows, expected ${t.members}`);
        }
        const inRoom = Number(
          (await p.db.query<{ n: string }>('select count(*) as n from room_members where room_id = $1', [roomId])).rows[0]!.n,
        );
        if (inRoom !== t.members) failures.push(`channels: ${t.label}: ${inRoom} members in the channel room, expected ${t.members}`);
      }
    }
  } finally {
    await pool.end();
  }

  const lines: string[] = [];
  lines.push(
    `CHANNELS  PUT /api/v1/channels/{id}/rule for a RULE channel in a tenant of ${ACCOUNTS.toLocaleString('en')} accounts (goal <= ${GOAL_MS} ms)`,
  );
  lines.push(
    `   ${ROUNDS} rounds of the transitions below, sequential. stack = the HTTP call (validation, auth, rule update, set-based evaluation, channel and room`,
  );
  lines.push('   bookkeeping, outbox events), on a channel without rooms and on one with a room whose members follow the channel.');
  lines.push(
    '   driver = the same rule update and set-based evaluation statement (evaluationSql in src/chat/channels/sync.ts) in one transaction through pg.',
  );
  lines.push('');
  lines.push(
    table(
      [
        'transition',
        'stack p50',
        'stack max',
        '+1 room p50',
        '+1 room max',
        'driver p50',
        'driver max',
        'p50 ratio',
        `goal max <= ${GOAL_MS} ms`,
      ],
      TRANSITIONS.map((t, i) => {
        const [a, r, d] = [stats(times[i]!.plain), stats(times[i]!.room), stats(times[i]!.driver)];
        return [
          t.label,
          ms(a.p50),
          ms(a.max),
          ms(r.p50),
          ms(r.max),
          ms(d.p50),
          ms(d.max),
          ratio(a.p50, d.p50),
          Math.max(a.max, r.max) <= GOAL_MS ? 'met' : 'NOT MET',
        ];
      }),
    ),
  );
  return { lines, failures };
}
