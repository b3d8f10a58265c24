// Pages of the webhook and delivery lists: newest first, the cursor names the last id shown and is signed for its
// list as the caller sees it (the partition and the filters given), so it pages no other list.
import { boundList, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid } from '../../platform/ids.js';
import type { WebhookErrorFactory } from './input-checks.js';
import type { WebhookPartition } from './rows.js';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A list of the partition's with the filters given (cursor and limit are left out). */
export function partitionList(kind: string, part: WebhookPartition, filters: object): string {
  return boundList(kind, [part.workspaceId, part.environment], filters);
}

export function cursorId(raw: string, list: string, errors: WebhookErrorFactory): string {
  const c = decodeCursor(raw, list);
  if (!c || typeof c.i !== 'string' || !isUuid(c.i))
    throw errors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
  return c.i;
}

/** The first `limit` of `limit + 1` rows read, and a cursor when there was one more. */
export function pageOf<T extends { id: string }>(rows: T[], limit: number, list: string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor({ i: last.id }, list) : null };
}
