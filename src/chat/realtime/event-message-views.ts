// The message views events carry: each message as every recipient sees it, with the shared part of its thread
// summary, and a message's reaction counts.
import type { SqlClient } from '../../platform/db/sql.js';
import { messageView, type MessageView } from '../base/message-views.js';
import type { MessagePreview } from '../base/room-views.js';
import { eventMessageRows, reactionCountRows, type MessageFactsRow } from './event-view-queries.js';

export type SharedThreadView = { replyCount: number; lastReplyAt: string | null; lastReply: MessagePreview | null };
export type EventMessageView = Omit<MessageView, 'hiddenForMe'> & { thread?: SharedThreadView };

export interface ReactionCount {
  emoji: string;
  count: number;
}

function threadOf(row: MessageFactsRow): SharedThreadView | undefined {
  if (row.thread_root_id !== null || row.reply_count <= 0) return undefined;
  return {
    replyCount: row.reply_count,
    lastReplyAt: row.last_reply_at ? row.last_reply_at.toISOString() : null,
    lastReply:
      row.lr_id && row.lr_sender_id && row.lr_created_at
        ? {
            id: row.lr_id,
            senderId: row.lr_sender_id,
            text: row.lr_recalled_at ? null : row.lr_text,
            createdAt: row.lr_created_at.toISOString(),
          }
        : null,
  };
}

function eventMessageView(row: MessageFactsRow): EventMessageView {
  const { hiddenForMe: _perUser, ...shared } = messageView(row);
  const thread = threadOf(row);
  return thread ? { ...shared, thread } : shared;
}

/** Messages by id with the shared part of their thread summary (the newest reply, whoever hid it). */
export async function messageViews(
  client: SqlClient,
  ids: string[],
): Promise<Map<string, { view: EventMessageView; thread?: SharedThreadView }>> {
  if (ids.length === 0) return new Map();
  const rows = await eventMessageRows(client, ids);
  return new Map(rows.map((r) => [r.id, { view: eventMessageView(r), thread: threadOf(r) }]));
}

export async function reactionCounts(client: SqlClient, messageIds: string[]): Promise<Map<string, ReactionCount[]>> {
  const counts = new Map<string, ReactionCount[]>(messageIds.map((id) => [id, []]));
  if (messageIds.length === 0) return counts;
  const rows = await reactionCountRows(client, messageIds);
  for (const r of rows) counts.get(r.message_id)?.push({ emoji: r.emoji, count: r.count });
  return counts;
}
