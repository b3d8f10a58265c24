// The kinds of update, and a bot's BotResponse view: the webhook without its secret, the rooms where it reads every
// message (those it is still a member of) and its pending updates.
import type { BotRow } from './bot-queries.js';

export type UpdateKind =
  'message' | 'edited_message' | 'callback_query' | 'poll' | 'poll_answer' | 'message_reaction' | 'my_chat_member' | 'chat_member';
export const updateKinds: readonly UpdateKind[] = [
  'message',
  'edited_message',
  'callback_query',
  'poll',
  'poll_answer',
  'message_reaction',
  'my_chat_member',
  'chat_member',
];

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
