// The statements of channels: the caller's channels and a channel's members (one or a page), creation, settings,
// deletion, the rule, and the caller's sidebar pin.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import type { Rule } from '../base/channel-access.js';

/** Channels the caller is a member of, with the caller's row (m); callers add conditions on c and m. */
const channelQuery = (callerId: string) =>
  chatDb
    .selectFrom('channel_members as m')
    .innerJoin('channels as c', (join) => join.onRef('c.id', '=', 'm.channel_id').on('c.deleted_at', 'is', null))
    .select(['c.id', 'c.name', 'c.description', 'c.membership_mode', 'c.rule', 'c.member_count', 'c.created_by', 'c.created_at'])
    .select(['m.role as my_role', 'm.pinned'])
    .where('m.account_id', '=', callerId);

export type ChannelRow = NonNullable<Awaited<ReturnType<ReturnType<typeof channelQuery>['executeTakeFirst']>>>;

/** One page of the caller's channels, pinned first, then newest first, after the keyset (pinned, created_at, id). */
export async function channelPage(
  db: Runner,
  callerId: string,
  after: { pinned: boolean; at: string; id: string } | null,
  limit: number,
): Promise<ChannelRow[]> {
  return rows(
    db,
    channelQuery(callerId)
      .$if(after !== null, (q) =>
        q.where((eb) =>
          eb(
            eb.refTuple('m.pinned', 'c.created_at', 'c.id'),
            '<',
            eb.tuple(sql<boolean>`${after!.pinned}::boolean`, sql<Date>`${after!.at}::timestamptz`, sql<string>`${after!.id}::uuid`),
          ),
        ),
      )
      .orderBy('m.pinned', 'desc')
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit),
  );
}

/** The channel as its member sees it; undefined when the caller is no member of a live one. */
export async function channelOf(db: Runner, callerId: string, channelId: string): Promise<ChannelRow | undefined> {
  return firstRow(db, channelQuery(callerId).where('c.id', '=', channelId));
}

/** Members of a channel with their account's display fields; callers add conditions on m. */
const channelMemberQuery = (channelId: string) =>
  chatDb
    .selectFrom('channel_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.account_id', 'm.role', 'm.joined_at', 'a.display_name', 'a.avatar_url', 'a.account_type'])
    .where('m.channel_id', '=', channelId);

export type ChannelMemberRow = NonNullable<Awaited<ReturnType<ReturnType<typeof channelMemberQuery>['executeTakeFirst']>>>;

/** One page of the channel's members in joining order, after the keyset (joined_at, account_id). */
export async function channelMemberPage(
  db: Runner,
  channelId: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<ChannelMemberRow[]> {
  return rows(
    db,
    channelMemberQuery(channelId)
      .$if(after !== null, (q) =>
        q.where((eb) =>
          eb(
            eb.refTuple('m.joined_at', 'm.account_id'),
            '>',
            eb.tuple(sql<Date>`${after!.at}::timestamptz`, sql<string>`${after!.id}::uuid`),
          ),
        ),
      )
      .orderBy('m.joined_at')
      .orderBy('m.account_id')
      .limit(limit),
  );
}

export async function channelMemberOf(db: Runner, channelId: string, accountId: string): Promise<ChannelMemberRow | undefined> {
  return firstRow(db, channelMemberQuery(channelId).where('m.account_id', '=', accountId));
}

export async function insertChannel(
  client: SqlClient,
  channel: {
    id: string;
    moduleCode: string;
    customerAccountId: string;
    name: string;
    description: string | null;
    membershipMode: string;
    rule: Rule | null;
    createdBy: string;
    at: Date;
  },
): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('channels').values({
      id: channel.id,
      module_code: channel.moduleCode,
      customer_account_id: channel.customerAccountId,
      name: channel.name,
      description: channel.description,
      membership_mode: channel.membershipMode,
      rule: channel.rule && JSON.stringify(channel.rule),
      member_count: 1,
      created_by: channel.createdBy,
      created_at: channel.at,
    }),
  );
}

/** Makes the accounts MEMBERs of the channel. */
export async function insertMembers(client: SqlClient, channelId: string, accountIds: string[], at: Date): Promise<void> {
  await affected(
    client,
    chatDb
      .insertInto('channel_members')
      .columns(['channel_id', 'account_id', 'role', 'joined_at'])
      .expression(
        chatDb.selectNoFrom([
          sql<string>`${channelId}::uuid`.as('channel_id'),
          sql<string>`unnest(${accountIds}::uuid[])`.as('account_id'),
          sql.lit('MEMBER').as('role'),
          sql<Date>`${at}::timestamptz`.as('joined_at'),
        ]),
      ),
  );
}

/** The channel's name and description. */
export async function channelSettings(client: SqlClient, channelId: string) {
  return firstRow(client, chatDb.selectFrom('channels').select(['name', 'description']).where('id', '=', channelId));
}

export async function writeChannelSettings(
  client: SqlClient,
  channelId: string,
  settings: { name: string; description: string | null },
): Promise<void> {
  await affected(
    client,
    chatDb.updateTable('channels').set({ name: settings.name, description: settings.description }).where('id', '=', channelId),
  );
}

/** Removes every member row of the channel; answers the former members. */
export async function deleteAllMembers(client: SqlClient, channelId: string): Promise<string[]> {
  const members = await rows(client, chatDb.deleteFrom('channel_members').where('channel_id', '=', channelId).returning('account_id'));
  return members.map((m) => m.account_id);
}

/** Marks the channel deleted, with no members. */
export async function markChannelDeleted(client: SqlClient, channelId: string, at: Date): Promise<void> {
  await affected(client, chatDb.updateTable('channels').set({ deleted_at: at, member_count: 0 }).where('id', '=', channelId));
}

export async function writeRule(client: SqlClient, channelId: string, rule: Rule): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('channels')
      .set({ rule: JSON.stringify(rule) })
      .where('id', '=', channelId),
  );
}

/** Whether the account is a member of the channel. */
export async function isChannelMember(client: SqlClient, channelId: string, accountId: string): Promise<boolean> {
  const rowCount = await affected(
    client,
    chatDb
      .selectFrom('channel_members')
      .select(sql.lit(1).as('one'))
      .where('channel_id', '=', channelId)
      .where('account_id', '=', accountId),
  );
  return rowCount > 0;
}

/** The account's pin of a live channel, its member row locked; undefined when it is no member of one. */
export async function lockPin(client: SqlClient, channelId: string, accountId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('channel_members as m')
      .innerJoin('channels as c', (join) => join.onRef('c.id', '=', 'm.channel_id').on('c.deleted_at', 'is', null))
      .select('m.pinned')
      .where('m.channel_id', '=', channelId)
      .where('m.account_id', '=', accountId)
      .forUpdate('m'),
  );
}

export async function writePin(client: SqlClient, channelId: string, accountId: string, pinned: boolean): Promise<void> {
  await affected(
    client,
    chatDb.updateTable('channel_members').set({ pinned }).where('channel_id', '=', channelId).where('account_id', '=', accountId),
  );
}

const rule: Rule = { field: 'team', equals: 'a' };

export const examples: QueryExamples = {
  channelPage: (db) => channelPage(db, example.id, { pinned: true, at: example.at.toISOString(), id: example.otherId }, 51),
  channelOf: (db) => channelOf(db, example.id, example.otherId),
  channelMemberPage: (db) => channelMemberPage(db, example.id, { at: example.at.toISOString(), id: example.otherId }, 101),
  channelMemberOf: (db) => channelMemberOf(db, example.id, example.otherId),
  insertChannel: (db) =>
    insertChannel(db, {
      id: example.id,
      moduleCode: 'crm',
      customerAccountId: 'acme',
      name: example.text,
      description: null,
      membershipMode: 'RULE',
      rule,
      createdBy: example.otherId,
      at: example.at,
    }),
  insertMembers: (db) => insertMembers(db, example.id, [example.otherId], example.at),
  channelSettings: (db) => channelSettings(db, example.id),
  writeChannelSettings: (db) => writeChannelSettings(db, example.id, { name: example.text, description: null }),
  deleteAllMembers: (db) => deleteAllMembers(db, example.id),
  markChannelDeleted: (db) => markChannelDeleted(db, example.id, example.at),
  writeRule: (db) => writeRule(db, example.id, rule),
  isChannelMember: (db) => isChannelMember(db, example.id, example.otherId),
  lockPin: (db) => lockPin(db, example.id, example.otherId),
  writePin: (db) => writePin(db, example.id, example.otherId, true),
};
