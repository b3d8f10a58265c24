// A workspace with the caller's role in it: the membership lookup that partner key administration and workspace key
// administration share. Each interface turns a refusal into its own error.
import type { Queryable } from '../../platform/db/queryable.js';
import type { Caller } from '../auth/caller.js';

export interface WorkspaceRow {
  id: string;
  name: string;
  plan: string;
  owner_id: string;
  created_at: Date;
  /** The caller's role; null when the caller is not a member (a platform administrator reading it). */
  my_role: string | null;
}

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
  db: Queryable,
  workspaceId: string,
  caller: Caller,
  refusals: MembershipRefusals,
  platformAdminReads = false,
): Promise<WorkspaceRow> {
  const { rows } = await db.query<WorkspaceRow>(
    `select w.id, w.name, w.plan, w.owner_id, w.created_at, m.role as my_role
       from workspaces w left join workspace_members m on m.workspace_id = w.id and m.account_id = $2
      where w.id = $1`,
    [workspaceId, caller.accountId],
  );
  const row = rows[0];
  if (!row || (row.my_role === null && !caller.platformAdmin)) throw refusals.notFound();
  if (row.my_role === null && !platformAdminReads) throw refusals.notMember();
  return row;
}
