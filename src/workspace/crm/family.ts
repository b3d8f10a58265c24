// List, get, create and update of a CRM family of this API over crm_records: this API's field names mapped to the
// row's data keys, references to other records and to members checked before anything is written, and the events
// of every write (crmRecordEvents, shared with the partner API) in the write's transaction.
import { readPool } from '../../platform/db/read-router.js';
import { patchRow } from '../../core/crm/records.js';
import { selectOne, type CrmRow, type Partition } from '../../core/crm/queries.js';
import { resourceDef, type ResourceId } from '../../core/crm/resources.js';
import { checkMembers } from '../base/checks.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { emitAll, withEvents, type EventDeps, type EventSink } from '../../core/events/outbox.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { crmRecordEvents } from '../../core/crm/events.js';
import { patchChangesNothing } from './leads.js';
import { insertRecord, selectRecords } from './queries.js';
import { checkReferences } from './references.js';
import { dataKeyOf, toData, type CrmFamily } from '../../core/crm/views.js';

export interface FamilyDef<V> {
  family: CrmFamily & ResourceId;
  /** "The deal", for 404 messages. */
  noun: string;
  view(row: CrmRow): V;
  /** Body fields that name another record of the partition. */
  references: Record<string, ResourceId>;
  /** Body fields that name a member of the workspace. */
  members: readonly string[];
  /** Body fields stored beside the partner's fields (the partner API does not show them). */
  extra: readonly string[];
  /** Query parameters that filter lists: parameter → data key ('status': the status column). */
  filters: Record<string, string>;
}

type Body = Record<string, unknown>;

/** Splits a body of this API into the partner's fields and the extra ones, both with the row's data keys. */
function split(def: FamilyDef<unknown>, body: Body): { partner: Body; extra: Body } {
  const partner: Body = {};
  const extra: Body = {};
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (def.extra.includes(field)) extra[field] = value;
    else partner[dataKeyOf(def.family, field)] = value;
  }
  return { partner, extra };
}

export class CrmFamilyService<V> {
  constructor(
    protected readonly deps: EventDeps,
    protected readonly def: FamilyDef<V>,
  ) {}

  notFound() {
    return workspaceErrors.notFound(this.def.noun);
  }

  async list(part: Partition, query: Record<string, unknown> & { limit?: number; cursor?: string }): Promise<Page<V>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const filters = Object.entries(this.def.filters).map(([param, key]) => ({ key, value: query[param] as string | undefined }));
    const list = listIn(part, this.def.family, query);
    const rows = await selectRecords(db, part, this.def.family, limit, readCursor(list, query.cursor), filters);
    return pageOf(rows, limit, list, this.def.view);
  }

  async get(part: Partition, id: string): Promise<V> {
    const db = await readPool(this.deps);
    const row = await selectOne(db, part, this.def.family, id);
    if (!row) throw this.notFound();
    return this.def.view(row);
  }

  /** Refs and members named by the body (null and absent ones are not checked). */
  protected async checkBody(db: Parameters<typeof checkMembers>[0], part: Partition, body: Body): Promise<void> {
    await checkReferences(
      db,
      part,
      Object.entries(this.def.references).map(([field, resource]) => ({
        field: `body.${field}`,
        id: body[field] as string | null | undefined,
        resource,
      })),
    );
    await checkMembers(
      db,
      part.workspaceId,
      this.def.members.map((field) => ({ field: `body.${field}`, id: body[field] as string | null | undefined })),
    );
  }

  /** Creates a record; `id` lets a caller derive defaults from the id before the insert. */
  async create(part: Partition, body: Body, options: { id?: string; extraDefaults?: Body } = {}): Promise<V> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      await this.checkBody(tx, part, body);
      const { partner, extra } = split(this.def as FamilyDef<unknown>, body);
      const defaults = Object.fromEntries(this.def.extra.map((f) => [f, null]));
      const row = await insertRecord(
        tx,
        part,
        this.def.family,
        partner,
        { ...defaults, ...options.extraDefaults, ...extra },
        now,
        options.id,
      );
      emitAll(sink, crmRecordEvents(this.def.family, null, row));
      return this.def.view(row);
    });
  }

  /**
   * Changes the given fields (null clears one). `guard` sees the locked row first and may refuse (409); `derive`
   * adds the fields that follow from the change (a deal's status from its stage). A body that changes nothing
   * writes and emits nothing.
   */
  async update(
    part: Partition,
    id: string,
    body: Body,
    hooks: {
      guard?: (row: CrmRow) => void;
      derive?: (patch: Body, row: CrmRow) => void;
      events?: (before: CrmRow, after: CrmRow, sink: EventSink) => void;
    } = {},
  ): Promise<V> {
    const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await selectOne(tx, part, this.def.family, id, true);
      if (!before) throw this.notFound();
      hooks.guard?.(before);
      if (Object.keys(given).length === 0) return this.def.view(before);
      await this.checkBody(tx, part, given);
      const patch = toData(this.def.family, given);
      hooks.derive?.(patch, before);
      if (patchChangesNothing(before, patch)) return this.def.view(before);
      const after = (await patchRow(tx, part, resourceDef(this.def.family), id, patch, now))!;
      if (hooks.events) hooks.events(before, after, sink);
      else emitAll(sink, crmRecordEvents(this.def.family, before, after));
      return this.def.view(after);
    });
  }
}
