// The statements of channel membership sync: a rule as an SQL predicate, the set-based evaluation of a RULE channel,
// one account's re-evaluation, and a membership change carried into the counters and the channel's rooms.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import type { Rule, RuleField } from '../base/channel-access.js';

const SCALAR_COLUMNS: Record<Exclude<RuleField, 'tags'>, string> = { team: 'a.team', department: 'a.department', role: 'a.role' };

/**
 * The rule as a boolean SQL expression over `accounts a`, its values bound as parameters. Every leaf is two-valued
 * (a field without a value matches nothing), so `not` is the plain complement.
 */
export function ruleExpression(rule: Rule): RawBuilder<SqlBool> {
  if ('all' in rule) return sql<SqlBool>`(${sql.join(rule.all.map(ruleExpression), sql` and `)})`;
  if ('any' in rule) return sql<SqlBool>`(${sql.join(rule.any.map(ruleExpression), sql` or `)})`;
  if ('not' in rule) return sql<SqlBool>`(not ${ruleExpression(rule.not)})`;
  if (rule.field === 'tags') {
    if ('contains' in rule) return sql<SqlBool>`(a.tags @> array[${rule.contains}::text])`;
    if ('in' in rule) return sql<SqlBool>`(a.tags && ${rule.in}::text[])`;
    throw new Error('tags takes contains or in');
  }
  const column = sql.ref(SCALAR_COLUMNS[rule.field]);
  if ('equals' in rule) return sql<SqlBool>`coalesce(${column} = ${rule.equals}::text, false)`;
  if ('in' in rule) return sql<SqlBool>`coalesce(${column} = any(${rule.in}::text[]), false)`;
  throw new Error('a field of one value takes equals or in');
}

/** A RULE channel with the tenancy its rule members come from. */
export interface RuleChannel {
  id: string;
  moduleCode: string;
  customerAccountId: string;
  rule: Rule;
}

/**
 * The statement that makes the MEMBER rows of a channel exactly the accounts its rule matches; OWNER and ADMIN
 * rows stay whatever the rule says. Rule members are USER accounts of the channel's module and customer whatever
 * their status (docs/adr/0047-channel-tenancy-and-modes.md).
 */
export function evaluationQuery(channel: RuleChannel, at: Date) {
  return chatDb
    .with('matched', (db) =>
      db
        .selectFrom('accounts as a')
        .select('a.id')
        .where('a.module_code', '=', channel.moduleCode)
        .where('a.customer_account_id', '=', channel.customerAccountId)
        .where('a.account_type', '=', 'USER')
        .where(ruleExpression(channel.rule)),
    )
    .with('removed', (db) =>
      db
        .deleteFrom('channel_members')
        .where('channel_members.channel_id', '=', channel.id)
        .where('channel_members.role', '=', 'MEMBER')
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('matched as x').select(sql.lit(1).as('one')).whereRef('x.id', '=', 'channel_members.account_id'))),
        )
        .returning('channel_members.account_id'),
    )
    .with('added', (db) =>
      db
        .insertInto('channel_members')
        .columns(['channel_id', 'account_id', 'role', 'joined_at'])
        .expression((eb) =>
          eb
            .selectFrom('matched as x')
            .select([
              sql<string>`${channel.id}::uuid`.as('channel_id'),
              'x.id',
              sql.lit('MEMBER').as('role'),
              sql<Date>`${at}::timestamptz`.as('joined_at'),
            ]),
        )
        .onConflict((oc) => oc.doNothing())
        .returning('account_id'),
    )
    .selectNoFrom((eb) => [
      sql<string[]>`array(${eb.selectFrom('added').select('account_id')})`.as('added'),
      sql<string[]>`array(${eb.selectFrom('removed').select('account_id')})`.as('removed'),
    ]);
}

/** Applies the channel's rule to its MEMBER rows; answers who was added and who removed. */
export async function evaluateRule(client: SqlClient, channel: RuleChannel, at: Date): Promise<{ added: string[]; removed: string[] }> {
  return (await firstRow(client, evaluationQuery(channel, at)))!;
}

/** The account's module, customer and type. */
export async function accountTenancy(client: SqlClient, accountId: string) {
  return firstRow(
    client,
    chatDb.selectFrom('accounts').select(['module_code', 'customer_account_id', 'account_type']).where('id', '=', accountId),
  );
}

/** Every live RULE channel of the module and customer, locked in id order. */
export async function lockRuleChannels(client: SqlClient, moduleCode: string, customerAccountId: string) {
  return rows(
    client,
    chatDb
      .selectFrom('channels')
      .select(['id', 'rule'])
      .where('module_code', '=', moduleCode)
      .where('customer_account_id', '=', customerAccountId)
      .where('membership_mode', '=', 'RULE')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .forUpdate(),
  );
}

/** Which of the channels' rules the account matches, in one statement (callers pass at most 50 rules). */
export async function channelsMatching(
  client: SqlClient,
  accountId: string,
  channels: Array<{ id: string; rule: Rule }>,
): Promise<string[]> {
  const hits = sql.join(channels.map((c) => sql`(${c.id}::uuid, ${ruleExpression(c.rule)})`));
  const verdicts = sql<{ cid: string; hit: SqlBool }>`(values ${hits})`.as<'v'>(sql`v(cid, hit)`);
  const matched = await rows(
    client,
    chatDb
      .selectFrom('accounts as a')
      .crossJoinLateral(verdicts)
      .select('v.cid')
      .where('a.id', '=', accountId)
      .where((eb) => eb.ref('v.hit')),
  );
  return matched.map((h) => h.cid);
}

/** The account's roles in those of the channels it is a member of. */
export async function rolesIn(client: SqlClient, accountId: string, channelIds: string[]) {
  return rows(
    client,
    chatDb
      .selectFrom('channel_members')
      .select(['channel_id', 'role'])
      .where('account_id', '=', accountId)
      .where('channel_id', '=', sql<string>`any(${channelIds}::uuid[])`),
  );
}

export async function insertChannelMember(client: SqlClient, channelId: string, accountId: string, role: string, at: Date): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('channel_members').values({ channel_id: channelId, account_id: accountId, role, joined_at: at }),
  );
}

export async function deleteChannelMember(client: SqlClient, channelId: string, accountId: string): Promise<void> {
  await affected(client, chatDb.deleteFrom('channel_members').where('channel_id', '=', channelId).where('account_id', '=', accountId));
}

/** Adds `delta` to the channel's member counter. */
export async function countChannelMembers(client: SqlClient, channelId: string, delta: number): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('channels')
      .set((eb) => ({ member_count: eb('member_count', '+', delta) }))
      .where('id', '=', channelId),
  );
}

/** The channel's live rooms, locked in id order. */
export async function lockChannelRooms(client: SqlClient, channelId: string): Promise<string[]> {
  const rooms = await rows(
    client,
    chatDb.selectFrom('rooms').select('id').where('channel_id', '=', channelId).where('deleted_at', 'is', null).orderBy('id').forUpdate(),
  );
  return rooms.map((r) => r.id);
}

/** Removes the accounts from the rooms; answers the rows removed. */
export async function removeFromRooms(client: SqlClient, roomIds: string[], accountIds: string[]) {
  return rows(
    client,
    chatDb
      .deleteFrom('room_members')
      .where('room_id', '=', sql<string>`any(${roomIds}::uuid[])`)
      .where('account_id', '=', sql<string>`any(${accountIds}::uuid[])`)
      .returning(['room_id', 'account_id']),
  );
}

/** New room members start with the room's history read, as any member added to an existing room. */
export async function addToRooms(client: SqlClient, roomIds: string[], accountIds: string[], at: Date) {
  return rows(
    client,
    chatDb
      .insertInto('room_members')
      .columns(['room_id', 'account_id', 'role', 'joined_at', 'last_read_seq'])
      .expression(
        chatDb
          .selectFrom('rooms as r')
          .crossJoin(sql<{ id: string }>`unnest(${accountIds}::uuid[])`.as<'x'>(sql`x(id)`))
          .select([
            'r.id as room_id',
            'x.id as account_id',
            sql.lit('MEMBER').as('role'),
            sql<Date>`${at}::timestamptz`.as('joined_at'),
            'r.last_seq',
          ])
          .where('r.id', '=', sql<string>`any(${roomIds}::uuid[])`),
      )
      .onConflict((oc) => oc.doNothing())
      .returning(['room_id', 'account_id']),
  );
}

/** Adds to each room's member counter its delta, in one statement. */
export async function countRoomMembers(client: SqlClient, deltas: Map<string, number>): Promise<void> {
  const table = chatDb
    .selectNoFrom([
      sql<string>`unnest(${[...deltas.keys()]}::uuid[])`.as('id'),
      sql<number>`unnest(${[...deltas.values()]}::int[])`.as('n'),
    ])
    .as('d');
  await affected(
    client,
    chatDb
      .updateTable('rooms as r')
      .from(table)
      .set((eb) => ({ member_count: eb('r.member_count', '+', eb.ref('d.n')) }))
      .whereRef('r.id', '=', 'd.id'),
  );
}

const rule: Rule = {
  all: [
    { field: 'team', equals: 'a' },
    {
      any: [
        { field: 'tags', contains: 'x' },
        { field: 'role', in: ['b', 'c'] },
      ],
    },
    { not: { field: 'tags', in: ['y'] } },
  ],
};
const channel: RuleChannel = { id: example.id, moduleCode: 'crm', customerAccountId: 'acme', rule };

export const examples: QueryExamples = {
  ruleExpression: () => chatDb.selectFrom('accounts as a').select('a.id').where(ruleExpression(rule)),
  evaluationQuery: () => evaluationQuery(channel, example.at),
  evaluateRule: (db) => evaluateRule(db, channel, example.at),
  accountTenancy: (db) => accountTenancy(db, example.id),
  lockRuleChannels: (db) => lockRuleChannels(db, 'crm', 'acme'),
  channelsMatching: (db) =>
    channelsMatching(db, example.id, [channel, { id: example.otherId, rule: { field: 'department', equals: 'd' } }]),
  rolesIn: (db) => rolesIn(db, example.id, [example.otherId]),
  insertChannelMember: (db) => insertChannelMember(db, example.id, example.otherId, 'MEMBER', example.at),
  deleteChannelMember: (db) => deleteChannelMember(db, example.id, example.otherId),
  countChannelMembers: (db) => countChannelMembers(db, example.id, 1),
  lockChannelRooms: (db) => lockChannelRooms(db, example.id),
  removeFromRooms: (db) => removeFromRooms(db, [example.id], [example.otherId]),
  addToRooms: (db) => addToRooms(db, [example.id], [example.otherId], example.at),
  countRoomMembers: (db) => countRoomMembers(db, new Map([[example.id, 1]])),
};
