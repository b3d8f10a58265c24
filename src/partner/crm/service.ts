// List, get, create and update of any CRM resource. Bodies arrive validated against the spec (whitelisted fields,
// required ones present, types and enums checked); what is left here is paging, the partition, defaults and
// references between records.
import { cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { crmRecordEvents } from '../../core/crm/events.js';
import { emitAll, withEvents, type EventDeps } from '../../core/events/outbox.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { partnerErrors } from '../base/errors.js';
import { listIn } from '../base/paging.js';
import { insertCrmRow, patchRow, renderRecord, utcInstant, type CrmRecord } from '../../core/crm/records.js';
import { resourcesOf, selectOne, selectPage, type Partition } from '../../core/crm/queries.js';
import { resourceDef, type ResourceDef, type ResourceId } from '../../core/crm/resources.js';

export interface ListQuery {
  limit?: number;
  cursor?: string;
  status?: string;
}

export interface ListPage {
  object: 'list';
  data: CrmRecord[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The position after the last record of a page; bound to its list (resource, partition, filter) so it pages no other. */
function pageCursor(list: string, lastId: string): string {
  return encodeCursor({ i: lastId }, list);
}

function parseCursor(list: string, raw: string): string {
  const id = cursorUuid(decodeCursor(raw, list)?.i);
  if (!id) throw partnerErrors.badInput('query.cursor', 'is not a cursor this list returned; pass next_cursor back unchanged');
  return id;
}

/**
 * Leads, deals, contacts and companies are the workspace API's records too: every create and update writes the
 * same events as that API's (crmRecordEvents) in its own transaction, or in the Idempotency-Key record's.
 */
export class CrmService {
  constructor(private readonly deps: EventDeps) {}

  async list(db: Queryable, part: Partition, resource: ResourceId, query: ListQuery): Promise<ListPage> {
    const def = resourceDef(resource);
    const limit = query.limit ?? 50;
    // Activities have no status; the spec does not offer the filter there.
    const status = def.statusField ? query.status : undefined;
    const list = listIn(part, `crm.${resource}`, { status });
    const rows = await selectPage(db, part, resource, {
      limit,
      beforeId: query.cursor !== undefined ? parseCursor(list, query.cursor) : undefined,
      status,
    });
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      object: 'list',
      data: page.map((row) => renderRecord(def, row)),
      has_more: hasMore,
      next_cursor: hasMore && last ? pageCursor(list, last.id) : null,
    };
  }

  async get(db: Queryable, part: Partition, resource: ResourceId, id: string): Promise<CrmRecord> {
    const def = resourceDef(resource);
    const row = await selectOne(db, part, resource, id);
    // Another workspace's, environment's or resource's record is indistinguishable from a missing one.
    if (!row) throw notFound(def);
    return renderRecord(def, row);
  }

  async create(db: Queryable, part: Partition, resource: ResourceId, body: Record<string, unknown>): Promise<CrmRecord> {
    const def = resourceDef(resource);
    if (def.writable === 'read_only') throw new Error(`${resource} cannot be created through the API`);
    await this.checkReferences(db, part, def, body, body);
    return withEvents(this.deps, db, part, async (tx, sink, now) => {
      const row = await insertCrmRow(tx, { ...part, resource, data: body, now });
      emitAll(sink, crmRecordEvents(resource, null, row));
      return renderRecord(def, row);
    });
  }

  /** Changes only the given fields; null clears an optional one. An empty body changes nothing. */
  async update(db: Queryable, part: Partition, resource: ResourceId, id: string, body: Record<string, unknown>): Promise<CrmRecord> {
    const def = resourceDef(resource);
    if (def.writable !== 'create_update') throw new Error(`${resource} cannot be changed through the API`);
    const patch: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(body)) patch[name] = def.instantFields.includes(name) ? utcInstant(value) : value;
    if (Object.keys(patch).length === 0) return this.get(db, part, resource, id);
    return withEvents(this.deps, db, part, async (tx, sink, now) => {
      // Locked, so that the events compare this write with the state it replaced.
      const current = await selectOne(tx, part, resource, id, true);
      if (!current) throw notFound(def);
      if (def.references.some((ref) => ref.field in patch || ('byField' in ref && ref.byField in patch))) {
        await this.checkReferences(tx, part, def, patch, { ...current.data, ...patch });
      }
      const row = await patchRow(tx, part, def, id, patch, now);
      if (!row) throw notFound(def);
      emitAll(sink, crmRecordEvents(resource, current, row));
      return renderRecord(def, row);
    });
  }

  /**
   * Every reference the write sets (to a non-null value) must name a record of the right resource in the same
   * workspace and environment; otherwise 400 naming the field. `merged` is the record as it will be, for
   * references whose resource another field chooses (activity.entity_type).
   */
  private async checkReferences(
    db: Queryable,
    part: Partition,
    def: ResourceDef,
    written: Record<string, unknown>,
    merged: Record<string, unknown>,
  ): Promise<void> {
    const wanted: Array<{ field: string; id: string; resource: ResourceId }> = [];
    for (const ref of def.references) {
      const touched = ref.field in written || ('byField' in ref && ref.byField in written);
      const value = merged[ref.field];
      if (!touched || typeof value !== 'string') continue;
      const target = 'resource' in ref ? ref.resource : ref.resources[String(merged[ref.byField])];
      if (target) wanted.push({ field: ref.field, id: value.toLowerCase(), resource: target });
    }
    if (wanted.length === 0) return;
    const found = await resourcesOf(
      db,
      part,
      wanted.map((w) => w.id),
    );
    for (const w of wanted) {
      if (found.get(w.id) !== w.resource) {
        throw partnerErrors.badInput(`body.${w.field}`, `names no ${resourceDef(w.resource).object.slice(4)} of this workspace`);
      }
    }
  }
}

function notFound(def: ResourceDef) {
  return partnerErrors.notFound(def.notFound, `The ${def.object.slice(4)}`);
}
