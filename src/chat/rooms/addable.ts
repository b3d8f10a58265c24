// Who may be put in a room by its caller: the one check of room creation, member additions and join-request approval.
import type { Caller } from '../base/context.js';
import { chatError } from '../base/errors.js';
import type { Queryable } from '../base/membership.js';
import { addableAccounts } from './queries.js';

export interface AddableOptions {
  /** One id at a fixed location (no index suffix). */
  single?: boolean;
  /** The list as the client sent it, for the indices in error details. */
  requested?: string[];
  /** The transaction to read in, when the caller holds one. */
  db?: Queryable;
}

/**
 * Accounts a caller may put in a room: registered, active, of the caller's customer, and (unless the room
 * crosses modules) of the caller's module. Anything else reads as "no such account" to avoid leaking ids.
 * Room creation, member additions and join-request approval all go through it.
 */
export async function checkAddable(
  pool: Queryable,
  caller: Caller,
  ids: string[],
  crossModule: boolean,
  location: string,
  options: AddableOptions = {},
): Promise<void> {
  const { single = false, requested = ids, db = pool } = options;
  if (ids.length === 0) return;
  const found = new Set(await addableAccounts(db, ids, caller.customerAccountId, crossModule ? null : caller.moduleCode));
  // Indices refer to the list as the client sent it (before dropping duplicates and the caller's own id), so
  // that body.memberIds.N points at the offending entry.
  const checked = new Set(ids);
  const missing = requested.map((id, i) => ({ id, i })).filter(({ id }) => checked.has(id) && !found.has(id));
  if (missing.length > 0) {
    const details = missing.map(({ i }) => ({
      location: single ? location : `${location}.${i}`,
      message: 'names no active account that can join this room',
    }));
    throw chatError(
      400,
      'validation_failed',
      `The request is invalid: ${details.map((d) => `${d.location} ${d.message}`).join('; ')}`,
      details,
    );
  }
}
