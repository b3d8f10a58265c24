// Leads of convention B, stored in the same crm_records rows the partner API serves as crm.lead: a lead created
// through either API is one lead. The seed's fields map onto the partner's (name ↔ full_name, note ↔ notes);
// owner_id and custom_fields, which the partner API does not show, live beside them in the row's data, so partner
// writes keep them (its updates merge into data). Reads and writes use the partner's SQL, bounded by workspace and
// key environment.
import type { components } from '../../../generated/types/workspace.js';
import type { Queryable } from '../../partner/db.js';
import { patchRow, recordData, selectOne, selectPage, type CrmRow, type Partition } from '../../partner/crm/records.js';
import { resourceDef } from '../../partner/crm/resources.js';
import type { Clock } from '../../platform/clock.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid, newId } from '../../platform/ids.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';

type Schemas = components['schemas'];
export type LeadView = Schemas['Crm.Lead'];
type LeadStatus = Schemas['Crm.LeadStatus'];

const def = resourceDef('leads');
export const leadsPath = '/api/v1/leads';
const maxCustomFields = 50;
const maxCustomFieldName = 100;

export function leadView(row: CrmRow): LeadView {
  const d = row.data;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    id: row.id,
    name: String(d.full_name ?? ''),
    phone: text(d.phone),
    email: text(d.email),
    source: text(d.source),
    status: d.status as LeadStatus,
    owner_id: text(d.owner_id),
    note: text(d.notes),
    custom_fields: (d.custom_fields && typeof d.custom_fields === 'object' ? d.custom_fields : {}) as Record<string, string>,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function parseCursor(raw: string): string {
  const c = decodeCursor(raw);
  if (!c || c.k !== 'leads' || typeof c.i !== 'string' || !isUuid(c.i)) {
    throw workspaceErrors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
  }
  return c.i.toLowerCase();
}

function checkCustomFields(fields: Record<string, string>): void {
  const names = Object.keys(fields);
  if (names.length > maxCustomFields) throw workspaceErrors.invalid('body.custom_fields', `holds at most ${maxCustomFields} pairs`);
  const bad = names.find((n) => n.length < 1 || n.length > maxCustomFieldName || n.includes('\u0000'));
  if (bad !== undefined) throw workspaceErrors.invalid('body.custom_fields', `has a name that is not 1 to ${maxCustomFieldName} characters without U+0000`);
}

const leadNotFound = () => workspaceErrors.notFound('The lead');

export class LeadService {
  constructor(private readonly clock: Clock) {}

  async list(db: Queryable, part: Partition, query: { limit?: number; cursor?: string; status?: LeadStatus }): Promise<Page<LeadView>> {
    const limit = query.limit ?? 50;
    const rows = await selectPage(db, part, 'leads', {
      limit,
      beforeId: query.cursor !== undefined ? parseCursor(query.cursor) : undefined,
      status: query.status,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(leadView), next_cursor: rows.length > limit && last ? encodeCursor({ k: 'leads', i: last.id }) : null };
  }

  async get(db: Queryable, part: Partition, id: string): Promise<LeadView> {
    const row = await selectOne(db, part, 'leads', id);
    if (!row) throw leadNotFound();
    return leadView(row);
  }

  async create(db: Queryable, part: Partition, body: Schemas['Crm.LeadCreate']): Promise<LeadView> {
    if (body.custom_fields) checkCustomFields(body.custom_fields);
    const now = this.clock.now();
    // The partner's defaults and field list (status new), then the fields only this API shows.
    const data: Record<string, unknown> = {
      ...recordData(def, { full_name: body.name, phone: body.phone ?? null, email: body.email ?? null, source: body.source ?? null, notes: body.note ?? null }, now),
      owner_id: null,
      custom_fields: body.custom_fields ?? {},
    };
    const { rows } = await db.query<CrmRow>(
      `insert into crm_records (id, workspace_id, environment, resource, status, data, created_at, updated_at)
       values ($1, $2, $3, 'leads', $4, $5::jsonb, $6, $6)
       returning id, data, created_at, updated_at`,
      [newId(), part.workspaceId, part.environment, data.status, JSON.stringify(data), now],
    );
    return leadView(rows[0]!);
  }

  /** Changes the status or the owner; an owner must be a member of the workspace. An empty body changes nothing. */
  async update(db: Queryable, part: Partition, id: string, body: Schemas['Crm.LeadUpdate']): Promise<LeadView> {
    const patch: Record<string, unknown> = {};
    if (body.status !== undefined) patch.status = body.status;
    if (body.owner_id !== undefined) patch.owner_id = body.owner_id === null ? null : body.owner_id.toLowerCase();
    if (Object.keys(patch).length === 0) return this.get(db, part, id);
    if (typeof patch.owner_id === 'string') {
      // A missing lead answers 404 before its owner is judged.
      if (!(await selectOne(db, part, 'leads', id))) throw leadNotFound();
      const { rowCount } = await db.query('select 1 from workspace_members where workspace_id = $1 and account_id = $2', [part.workspaceId, patch.owner_id]);
      if (!rowCount) throw workspaceErrors.invalid('body.owner_id', 'names no member of this workspace');
    }
    const row = await patchRow(db, part, def, id, patch, this.clock.now());
    if (!row) throw leadNotFound();
    return leadView(row);
  }
}
