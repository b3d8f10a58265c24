// A workspace with the caller's role in it: the membership lookup that partner key administration and workspace key
// administration share. Each interface turns a refusal into its own error.
import type { Runner } from '../../platform/db/typed.js';
import type { Caller } from '../auth/caller.js';
import { workspaceWithRole, type WorkspaceRow } from './queries.js';

export type { WorkspaceRow } from './queries.js';

export interface MembershipRefusals {
  /** The workspace does not exist, or the caller may not learn that it does. */
  notFound: () => Error;
  /** A platform administrator who is not a member, where acting takes membership. */
  notMember: () => Error;
}

/**
 * The workspace with the caller's role. Non-members are refused as if it did not exist; platform administrators may
 * read any workspace when `platformAdminReads` is set (their my_role stays null unless they are members), and
 * elsewhere are refused as non-members: they can see that it exists, but acting in it takes membership.
 */
export async function loadMemberWorkspace(
  db: Runner,
  workspaceId: string,
  caller: Caller,
  refusals: MembershipRefusals,
  platformAdminReads = false,
): Promise<WorkspaceRow> {
  const row = await workspaceWithRole(db, workspaceId, caller.accountId);
  if (!row || (row.my_role === null && !caller.platformAdmin)) throw refusals.notFound();
  if (row.my_role === null && !platformAdminReads) throw refusals.notMember();
  return row;
}
