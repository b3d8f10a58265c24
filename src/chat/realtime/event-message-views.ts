// The message views events carry: each message as every recipient sees it, with the shared part of its thread
// summary, and a message's reaction counts.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { hotRows, rows as allRows } from '../../platform/db/typed.js';
import { messageColumnsIn, messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import type { MessagePreview } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';

export type SharedThreadView = { replyCount: number; lastReplyAt: string | null; lastReply: MessagePreview | null };
export type EventMessageView = Omit<MessageView, 'hiddenForMe'> & { thread?: SharedThreadView };

export interface ReactionCount {
  emoji: string;
  count: number;
}

/** The message row's columns of the alias `m`. */
const messageFields = messageColumnsIn('m');

/** Messages by id with the newest reply of each root; the text does not depend on the ids (a prepared statement). */
const messageFacts = (ids: string[]) =>
  chatDb
    .selectFrom('messages as m')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as r')
          .select(['r.id', 'r.sender_id', 'r.text', 'r.recalled_at', 'r.created_at'])
          .where('m.reply_count', '>', sql.lit(0))
          .where('m.thread_root_id', 'is', null)
          .whereRef('r.thread_root_id', '=', 'm.id')
          .orderBy('r.seq', 'desc')
          .limit(sql.lit(1))
          .as('lr'),
      (join) => join.onTrue(),
    )
    .select(messageFields)
    .select([
      'm.reply_count',
      'm.last_reply_at',
      'lr.id as lr_id',
      'lr.sender_id as lr_sender_id',
      'lr.text as lr_text',
      'lr.recalled_at as lr_recalled_at',
      'lr.created_at as lr_created_at',
    ])
    .where('m.id', '=', sql<string>`any(${ids}::uuid[])`)
    .$narrowType<Pick<MessageRow, 'type' | 'attachments' | 'inline_keyboard' | 'entities' | 'reply_markup' | 'formatting'>>();

type MessageFactsRow = Awaited<ReturnType<ReturnType<typeof messageFacts>['executeTakeFirstOrThrow']>>;

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
  // Prepared: it runs on the path from a commit to the sockets.
  const rows = await hotRows(client, messageFacts(ids));
  return new Map(rows.map((r) => [r.id, { view: eventMessageView(r), thread: threadOf(r) }]));
}

export async function reactionCounts(client: SqlClient, messageIds: string[]): Promise<Map<string, ReactionCount[]>> {
  const counts = new Map<string, ReactionCount[]>(messageIds.map((id) => [id, []]));
  if (messageIds.length === 0) return counts;
  // The order of GET .../reactions: each emoji where it was first used on the message.
  const rows = await allRows(
    client,
    chatDb
      .selectFrom('message_reactions')
      .select(['message_id', 'emoji', sql<number>`count(*)::int`.as('count')])
      .where('message_id', '=', sql<string>`any(${messageIds}::uuid[])`)
      .groupBy(['message_id', 'emoji'])
      .orderBy('message_id')
      .orderBy(sql`min(created_at)`)
      .orderBy('emoji'),
  );
  for (const r of rows) counts.get(r.message_id)?.push({ emoji: r.emoji, count: r.count });
  return counts;
}
