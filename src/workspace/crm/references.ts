// The reference checks of writes: a record named by a body field must be one of its resource in the partition.
import type { Queryable } from '../../platform/db/queryable.js';
import { resourcesOf, type Partition } from '../../core/crm/queries.js';
import { resourceDef, type ResourceId } from '../../core/crm/resources.js';
import { workspaceErrors } from '../base/errors.js';

/** Every given reference must name a record of its resource in the partition; else 400 naming the field. */
export async function checkReferences(
  db: Queryable,
  part: Partition,
  refs: Array<{ field: string; id: string | null | undefined; resource: ResourceId }>,
): Promise<void> {
  const wanted = refs.filter((r): r is { field: string; id: string; resource: ResourceId } => typeof r.id === 'string');
  if (wanted.length === 0) return;
  const found = await resourcesOf(
    db,
    part,
    wanted.map((w) => w.id),
  );
  for (const w of wanted) {
    if (found.get(w.id) !== w.resource)
      throw workspaceErrors.invalid(w.field, `names no ${resourceDef(w.resource).object.slice(4)} of this workspace`);
  }
}
