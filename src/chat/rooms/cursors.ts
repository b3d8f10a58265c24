// Keyset fields read back from cursors are checked fully before they reach SQL, so a hand-made cursor is a
// 400 invalid_cursor and never a database error.
import { isUuid } from '../../platform/ids.js';

// What Date.prototype.toISOString writes for years 0001-9999; PostgreSQL refuses year 0 and beyond-range years.
const isoInstant = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function isCursorInstant(value: unknown): value is string {
  if (typeof value !== 'string' || !isoInstant.test(value)) return false;
  const at = new Date(value);
  return !Number.isNaN(at.getTime()) && at.toISOString() === value;
}

export function isCursorUuid(value: unknown): value is string {
  return typeof value === 'string' && isUuid(value);
}
