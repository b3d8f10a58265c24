// Keyset paging of the module families: newest first by id (UUIDv7, so creation order) unless a list says
// otherwise, with signed cursors bound to their list (its name, the key's workspace and environment, and the filters
// given) so a cursor of one list cannot page another.
import type { Partition } from '../../core/crm/queries.js';
import { boundList, cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { workspaceErrors } from './errors.js';

/** A list of the key's workspace and environment with the filters given: its cursors page nothing else. */
export function listIn(part: Partition, list: string, filters?: object): string {
  return boundList(list, [part.workspaceId, part.environment], filters);
}

export const defaultLimit = 50;

/** One page of a list: its items and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface Position {
  id: string;
  /** A second key before the id, for lists ordered by a time (attendance by check-in). */
  at?: string;
}

/** The position a cursor of `list` (from listIn) holds; 400 naming query.cursor for anything else. */
export function readCursor(list: string, raw: string | undefined, withTime = false): Position | undefined {
  if (raw === undefined) return undefined;
  const c = decodeCursor(raw, list);
  const id = c ? cursorUuid(c.i) : null;
  const at = withTime && c ? cursorInstant(c.t) : null;
  if (!id || (withTime && !at))
    throw workspaceErrors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
  return at ? { id, at } : { id };
}

/** One page from up to limit + 1 rows: the extra row only says that another page follows. */
export function pageOf<R extends { id: string }, V>(
  rows: R[],
  limit: number,
  list: string,
  view: (row: R) => V,
  timeOf?: (row: R) => Date,
): Page<V> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  let next: string | null = null;
  if (rows.length > limit && last) next = encodeCursor(timeOf ? { i: last.id, t: timeOf(last).toISOString() } : { i: last.id }, list);
  return { items: page.map(view), next_cursor: next };
}
