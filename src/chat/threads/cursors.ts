// Cursors of the thread operations, through the shared encodeCursor/decodeCursor. A value that does not decode
// to exactly the expected keyset is 400 invalid_cursor, never a database error.
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid } from '../../platform/ids.js';
import { chatErrors } from '../base/errors.js';

/** A thread page cursor: the room sequence number of the last reply served, as listMessages uses. */
/** A cursor pages through one list only: a thread's replies, or one room's thread list. */
export const threadRepliesList = (rootId: string) => `thread:${rootId}`;
export const threadListList = (roomId: string) => `threads:${roomId}`;

export function parseSeqCursor(raw: string, location: string, list: string): number {
  const c = decodeCursor(raw, list);
  if (!c || typeof c.s !== 'number' || !Number.isSafeInteger(c.s) || c.s < 0) throw chatErrors.invalidCursor(location);
  return c.s;
}

export function seqCursor(seq: number, list: string): string {
  return encodeCursor({ s: seq }, list);
}

export interface ThreadListCursor {
  at: Date;
  id: string;
}

const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The thread list cursor: (last_reply_at, id) of the last thread served; only instants the service can store. */
export function parseThreadListCursor(raw: string, list: string): ThreadListCursor {
  const c = decodeCursor(raw, list);
  if (!c || typeof c.a !== 'string' || typeof c.i !== 'string' || !isUuid(c.i) || !isoMillis.test(c.a)) {
    throw chatErrors.invalidCursor('query.cursor');
  }
  const at = new Date(c.a);
  // The round trip refuses impossible dates (02-30) and year 0, which PostgreSQL cannot take.
  if (Number.isNaN(at.getTime()) || at.toISOString() !== c.a || at.getUTCFullYear() < 1) throw chatErrors.invalidCursor('query.cursor');
  return { at, id: c.i.toLowerCase() };
}

export function threadListCursor(at: Date, id: string, list: string): string {
  return encodeCursor({ a: at.toISOString(), i: id }, list);
}
