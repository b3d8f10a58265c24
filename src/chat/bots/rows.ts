// A bot as stored, and its BotResponse view: the webhook without its secret, the rooms where it reads every
// message (those it is still a member of) and its pending updates.
import type { SqlClient, SqlPool } from '../../platform/db/sql.js';

export interface BotRow {
  id: string;
  account_id: string;
  module_code: string;
  customer_account_id: string;
  username: string;
  description: string | null;
  display_name: string;
  avatar_url: string | null;
  allowed_updates: string[] | null;
  webhook_url: string | null;
  webhook_secret: string | null;
  webhook_max_connections: number | null;
  webhook_last_error_at: Date | null;
  webhook_last_error_message: string | null;
  created_at: Date;
  updated_at: Date;
  read_all_room_ids: string[];
  pending: number;
}

export const botSelect = `
  select b.id, b.account_id, b.module_code, b.customer_account_id, b.username, b.description, a.display_name, a.avatar_url,
         b.allowed_updates, b.webhook_url, b.webhook_secret, b.webhook_max_connections, b.webhook_last_error_at,
         b.webhook_last_error_message, b.created_at, b.updated_at,
         coalesce((select array_agg(s.room_id order by s.room_id) from bot_room_settings s
                    where s.bot_id = b.id and s.read_all
                      and exists (select 1 from room_members m where m.room_id = s.room_id and m.account_id = b.account_id)), '{}') as read_all_room_ids,
         (select count(*) from bot_updates u where u.bot_id = b.id)::int as pending
    from bots b join accounts a on a.id = b.account_id
   where b.deleted_at is null`;

export type UpdateKind = 'message' | 'callback_query';
export const updateKinds: readonly UpdateKind[] = ['message', 'callback_query'];

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

export async function loadBot(db: SqlPool | SqlClient, botId: string): Promise<BotRow | undefined> {
  const { rows } = await db.query<BotRow>(`${botSelect} and b.id = $1`, [botId]);
  return rows[0];
}
