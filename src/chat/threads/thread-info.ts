// The `thread` object of roots on a topLevelOnly scroll page: one batched query over the page's ids.
import type { SqlPool } from '../../platform/db/sql.js';
import type { MessageView } from '../messages/views.js';
import { threadFactsSql } from './sql.js';
import { threadInfoView, type ThreadFactsRow, type ThreadInfoView } from './views.js';

export type MessageWithThread = MessageView & { thread?: ThreadInfoView };

/** Adds `thread` to each message of the page that is a root with replies, from the caller's view. */
export async function attachThreadInfo(sql: SqlPool, accountId: string, items: MessageWithThread[]): Promise<void> {
  if (items.length === 0) return;
  const { rows } = await sql.query<ThreadFactsRow>(threadFactsSql('id = any($2::uuid[])', '', ''), [accountId, items.map((m) => m.id)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const item of items) {
    const row = byId.get(item.id);
    if (row) item.thread = threadInfoView(row);
  }
}
