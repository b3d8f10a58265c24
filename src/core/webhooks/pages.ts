// Pages of the webhook and delivery lists: newest first, the cursor names the last id shown and the list it belongs to.
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid } from '../../platform/ids.js';
import type { WebhookErrorFactory } from './input-checks.js';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function cursorId(raw: string, kind: string, errors: WebhookErrorFactory): string {
  const c = decodeCursor(raw);
  if (!c || c.k !== kind || typeof c.i !== 'string' || !isUuid(c.i))
    throw errors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
  return c.i;
}

/** The first `limit` of `limit + 1` rows read, and a cursor when there was one more. */
export function pageOf<T extends { id: string }>(rows: T[], limit: number, kind: string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor({ k: kind, i: last.id }) : null };
}
