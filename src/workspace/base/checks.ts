// Rules of the families that a schema cannot state: members of the workspace, instants PostgreSQL and the domain
// accept, dates. Each refusal is 400 invalid_request naming the field, raised before anything is written.
import type { Queryable } from '../../platform/db/queryable.js';
import { checkMembers as checkWorkspaceMembers } from '../../core/inbox/references.js';
import { workspaceErrors } from './errors.js';

/** Every given id must be a member of the workspace (workspace_members); else 400 naming the field. */
export function checkMembers(
  db: Queryable,
  workspaceId: string,
  members: Array<{ field: string; id: string | null | undefined }>,
): Promise<void> {
  return checkWorkspaceMembers(db, workspaceErrors, workspaceId, members);
}

const minInstant = Date.UTC(1970, 0, 1);
const maxInstant = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An RFC 3339 instant between 1970 and 9999, as a Date; else 400 naming the field. */
export function instantOf(field: string, value: string): Date {
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || ms < minInstant || ms > maxInstant)
    throw workspaceErrors.invalid(field, 'must be an instant between 1970 and 9999');
  return new Date(ms);
}

/** A YYYY-MM-DD date that exists (the schema checks the form). */
export function dateOf(field: string, value: string): string {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw workspaceErrors.invalid(field, 'is not a calendar date');
  return value;
}

/** Today's date in UTC by the given clock time. */
export function todayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Calendar days from start to end, both included. */
export function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

/** 409 conflict: the record's state refuses the action; the message says why. */
export function conflict(message: string) {
  return workspaceErrors.conflict(message);
}

/** Runs a write whose unique index may refuse a concurrent twin: the refusal becomes 409 with the given message. */
export async function uniqueOr409<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw workspaceErrors.conflict(message);
    throw err;
  }
}
