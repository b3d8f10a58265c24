// References an inbox write may carry: workspace members (assignee, author) and CRM contacts. Each unknown one is
// 400 naming the field, raised before anything is written.
import { resourcesOf, type Partition } from '../crm/queries.js';
import type { Queryable } from '../../platform/db/queryable.js';
import type { InboxErrorFactory } from './errors.js';
import { workspaceMembersAmong } from './queries.js';

type Ref = { field: string; id: string | null | undefined };

/** Every given id must be a member of the workspace (workspace_members); else 400 naming the field. */
export async function checkMembers(
  db: Queryable,
  errors: Pick<InboxErrorFactory, 'invalid'>,
  workspaceId: string,
  members: Ref[],
): Promise<void> {
  const wanted = members.filter((m): m is { field: string; id: string } => typeof m.id === 'string');
  if (wanted.length === 0) return;
  const found = await workspaceMembersAmong(
    db,
    workspaceId,
    wanted.map((m) => m.id),
  );
  const missing = wanted.find((m) => !found.has(m.id));
  if (missing) throw errors.invalid(missing.field, 'names no member of this workspace');
}

export async function checkContact(db: Queryable, errors: InboxErrorFactory, part: Partition, ref: Ref): Promise<void> {
  if (typeof ref.id !== 'string') return;
  const found = await resourcesOf(db, part, [ref.id]);
  if (found.get(ref.id) !== 'contacts') throw errors.invalid(ref.field, 'names no contact of this workspace');
}
