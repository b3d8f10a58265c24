// A bot as stored, and its BotResponse view: the webhook without its secret, the rooms where it reads every
// message (those it is still a member of) and its pending updates.
import { sql } from 'kysely';
import { firstRow, type Runner } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';

/** A live bot with its account's name and avatar, its read-all rooms (where it is still a member) and its pending updates. */
export const botSelect = chatDb
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

export type UpdateKind = 'message' | 'edited_message' | 'callback_query';
export const updateKinds: readonly UpdateKind[] = ['message', 'edited_message', 'callback_query'];

export interface WebhookView {
  url: string;
  hasSecret: boolean;
  maxConnections: number | null;
  allowedUpdates: UpdateKind[];
  lastErrorAt: string | null;
  lastErrorMessage: string | null;
}

export interface BotView {
  id: string;
  accountId: string;
  username: string;
  displayName: string;
  description: string | null;
  avatarUrl: string | null;
  moduleCode: string;
  customerAccountId: string;
  webhook: WebhookView | null;
  readAllRoomIds: string[];
  pendingUpdateCount: number;
  createdAt: string;
  updatedAt: string;
}

const knownKinds = (kinds: string[] | null): UpdateKind[] =>
  (kinds ?? []).filter((k): k is UpdateKind => (updateKinds as string[]).includes(k));

export function webhookView(row: BotRow): WebhookView | null {
  if (row.webhook_url === null) return null;
  return {
    url: row.webhook_url,
    hasSecret: row.webhook_secret !== null,
    maxConnections: row.webhook_max_connections,
    allowedUpdates: knownKinds(row.allowed_updates),
    lastErrorAt: row.webhook_last_error_at ? row.webhook_last_error_at.toISOString() : null,
    lastErrorMessage: row.webhook_last_error_message,
  };
}

export function botView(row: BotRow): BotView {
  return {
    id: row.id,
    accountId: row.account_id,
    username: row.username,
    displayName: row.display_name,
    description: row.description,
    avatarUrl: row.avatar_url,
    moduleCode: row.module_code,
    customerAccountId: row.customer_account_id,
    webhook: webhookView(row),
    readAllRoomIds: row.read_all_room_ids,
    pendingUpdateCount: row.pending,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function loadBot(db: Runner, botId: string): Promise<BotRow | undefined> {
  return firstRow(db, botSelect.where('b.id', '=', botId));
}
