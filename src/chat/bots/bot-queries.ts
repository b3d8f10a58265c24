// The statements that read bots as stored: one bot with its BotResponse columns, a page of them, and the lock a
// manager takes on a bot's row.
import { sql } from 'kysely';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** A live bot with its account's name and avatar, its read-all rooms (where it is still a member) and its pending updates. */
const botSelect = chatDb
  .selectFrom('bots as b')
  .innerJoin('accounts as a', 'a.id', 'b.account_id')
  .select([
    'b.id',
    'b.account_id',
    'b.module_code',
    'b.customer_account_id',
    'b.username',
    'b.description',
    'a.display_name',
    'a.avatar_url',
    'b.allowed_updates',
    'b.webhook_url',
    'b.webhook_secret',
    'b.webhook_max_connections',
    'b.webhook_last_error_at',
    'b.webhook_last_error_message',
    'b.created_at',
    'b.updated_at',
  ])
  .select([
    (eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom('bot_room_settings as s')
            .whereRef('s.bot_id', '=', 'b.id')
            .where('s.read_all', '=', true)
            .where(({ exists, selectFrom }) =>
              exists(
                selectFrom('room_members as m')
                  .whereRef('m.room_id', '=', 's.room_id')
                  .whereRef('m.account_id', '=', 'b.account_id')
                  .select(sql<number>`1`.as('one')),
              ),
            )
            .select(sql<string[]>`array_agg(s.room_id order by s.room_id)`.as('ids'))
            .$asScalar(),
          sql<string[]>`'{}'`,
        )
        .as('read_all_room_ids'),
    (eb) =>
      eb
        .selectFrom('bot_updates as u')
        .whereRef('u.bot_id', '=', 'b.id')
        .select(sql<number>`count(*)::int`.as('n'))
        .$asScalar()
        .as('pending'),
  ])
  .where('b.deleted_at', 'is', null);

export type BotRow = NonNullable<Awaited<ReturnType<typeof botSelect.executeTakeFirst>>>;

export async function loadBot(db: Runner, botId: string): Promise<BotRow | undefined> {
  return firstRow(db, botSelect.where('b.id', '=', botId));
}

export interface BotPageFilter {
  /** Only bots with a webhook. */
  webhooksOnly: boolean;
  /** Only the bots of this module and customer; null: every live bot. */
  owner: { moduleCode: string; customerAccountId: string } | null;
  /** Only bots after this one in (created_at, id) order. */
  after: { at: string; id: string } | undefined;
  /** How many rows at most. */
  limit: number;
}

/** Live bots oldest first, keyset on (created_at, id). */
export async function botPage(db: Runner, filter: BotPageFilter): Promise<BotRow[]> {
  const { owner, after } = filter;
  return rows(
    db,
    botSelect
      .$if(filter.webhooksOnly, (q) => q.where('b.webhook_url', 'is not', null))
      .$if(owner !== null, (q) =>
        q.where('b.module_code', '=', owner!.moduleCode).where('b.customer_account_id', '=', owner!.customerAccountId),
      )
      .$if(after !== undefined, (q) =>
        q.where((eb) =>
          eb(eb.refTuple('b.created_at', 'b.id'), '>', eb.tuple(sql<Date>`${after!.at}::timestamptz`, sql<string>`${after!.id}::uuid`)),
        ),
      )
      .orderBy('b.created_at')
      .orderBy('b.id')
      .limit(filter.limit),
  );
}

/** Locks the live bot's row for the rest of the transaction; its owner, or undefined when there is no live bot. */
export async function lockBotOwner(client: Runner, botId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('bots')
      .select(['module_code', 'customer_account_id'])
      .where('id', '=', botId)
      .where('deleted_at', 'is', null)
      .forUpdate(),
  );
}

export const examples: QueryExamples = {
  loadBot: (db) => loadBot(db, example.id),
  botPage: (db) =>
    botPage(db, {
      webhooksOnly: true,
      owner: { moduleCode: 'module', customerAccountId: example.otherId },
      after: { at: example.at.toISOString(), id: example.id },
      limit: 51,
    }),
  lockBotOwner: (db) => lockBotOwner(db, example.id),
};
