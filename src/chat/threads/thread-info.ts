// The `thread` object of roots that have replies, in every message view (scroll pages with or without
// topLevelOnly, one message, pins, the snap banner, saved cards, edit and recall answers): one batched query over
// the roots of a page, and none at all when the page holds no root with replies (the rows' reply_count says so).
import type { Queryable } from '../base/membership.js';
import type { MessageRow, MessageView } from '../base/message-views.js';
import { threadFactsOf } from './thread-queries.js';
import { threadInfoView, type ThreadInfoView } from './views.js';

export type MessageWithThread = MessageView & { thread?: ThreadInfoView };

/** The column to select beside the message columns (of alias `alias`) so that the rows tell which are roots. */
export const replyCountColumn = (alias?: string) => (alias ? `${alias}.reply_count` : 'reply_count');

/** Ids of the rows that are top-level messages with replies; rows selected without reply_count count as none. */
export function rootsWithReplies(rows: Iterable<Pick<MessageRow, 'id' | 'thread_root_id' | 'reply_count'>>): Set<string> {
  const ids = new Set<string>();
  for (const row of rows) if (row.thread_root_id === null && (row.reply_count ?? 0) > 0) ids.add(row.id);
  return ids;
}

/** Adds `thread`, from the caller's view, to each message whose id is in `roots`. */
export async function attachThreadInfo(db: Queryable, accountId: string, items: MessageWithThread[], roots: Set<string>): Promise<void> {
  const ids = items.filter((m) => roots.has(m.id)).map((m) => m.id);
  if (ids.length === 0) return;
  const facts = await threadFactsOf(db, accountId, ids);
  const byId = new Map(facts.map((r) => [r.id, r]));
  for (const item of items) {
    const row = byId.get(item.id);
    if (row) item.thread = threadInfoView(row);
  }
}

/** One message view with its thread, when it is a root with replies. */
export async function withThread(db: Queryable, accountId: string, row: MessageRow, view: MessageWithThread): Promise<MessageWithThread> {
  await attachThreadInfo(db, accountId, [view], rootsWithReplies([row]));
  return view;
}
