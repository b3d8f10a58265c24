// A search's time bound as PostgreSQL reads it. RFC 3339 allows UTC offsets up to ±23:59 where PostgreSQL's
// timestamptz input takes ±15:59, and an instant near year 0 or 9999 can leave years 1 to 9999 once its offset is
// applied. The bound goes to the database as a UTC instant clamped to those years: every message lies inside them,
// so the filter still means what was asked.
import { chatErrors } from '../base/errors.js';

const earliest = Date.parse('0001-01-01T00:00:00.000Z');
const latest = Date.parse('9999-12-31T23:59:59.999Z');

/** The bound as an ISO 8601 UTC string PostgreSQL accepts; 400 naming `location` when it is no instant at all. */
export function searchTimeBound(location: string, raw: string): string {
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw chatErrors.invalid(location, 'is not an instant');
  return new Date(Math.min(latest, Math.max(earliest, ms))).toISOString();
}
