// Stripe-style lists of the inbox: { object: list, data, has_more, next_cursor }, newest first, with cursors bound
// to the list they came from (a conversation's messages cursor pages only that conversation's messages).
import { cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { partnerErrors } from '../errors.js';

export const defaultLimit = 50;

export interface ListOf<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The id a cursor of this list holds; undefined without a cursor; 400 bad_input for any other cursor. */
export function beforeIdOf(list: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const id = cursorUuid(decodeCursor(raw, list)?.i);
  if (!id) throw partnerErrors.badInput('query.cursor', 'is not a cursor this list returned; pass next_cursor back unchanged');
  return id;
}

/** One page from up to limit + 1 rows: the extra row only says that another page follows. */
export function listOf<R extends { id: string }, V>(rows: R[], limit: number, list: string, view: (row: R) => V): ListOf<V> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const more = rows.length > limit && last !== undefined;
  return { object: 'list', data: page.map(view), has_more: more, next_cursor: more ? encodeCursor({ i: last.id }, list) : null };
}
