// When a scheduled message or a one-time reminder may be set for: strictly after now, at most five years ahead
// (far enough for any plan, near enough that no instant falls outside PostgreSQL's or BullMQ's range).
import type { Clock } from '../../../platform/clock.js';
import { chatErrors } from '../errors.js';

const horizonMs = 5 * 366 * 24 * 3600 * 1000;

export function futureInstant(raw: string, clock: Clock, location: string): Date {
  const at = new Date(raw);
  const now = clock.now().getTime();
  if (Number.isNaN(at.getTime())) throw chatErrors.invalid(location, 'is not an instant');
  if (at.getTime() <= now) throw chatErrors.invalid(location, 'must be in the future');
  if (at.getTime() > now + horizonMs) throw chatErrors.invalid(location, 'must be at most five years ahead');
  return at;
}
