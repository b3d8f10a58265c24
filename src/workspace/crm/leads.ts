// Leads of convention B, stored in the same crm_records rows the partner API serves as crm.lead: a lead created
// through either API is one lead. The seed's fields map onto the partner's (name ↔ full_name, note ↔ notes);
// owner_id and custom_fields, which the partner API does not show, live beside them in the row's data, so partner
// writes keep them (its updates merge into data). Every write emits its events (crmRecordEvents) in its transaction.
import { readPool } from '../../platform/db/read-router.js';
import type { components } from '../../../generated/types/workspace.js';
import { patchRow } from '../../core/crm/records.js';
import { selectOne, type CrmRow, type Partition } from '../../core/crm/queries.js';
import { resourceDef } from '../../core/crm/resources.js';
import { sameValue } from '../../core/events/changes.js';
import { emitAll, withEvents, type EventDeps } from '../../core/events/outbox.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { checkMembers } from '../base/checks.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { crmRecordEvents } from '../../core/crm/events.js';
import { insertRecord, selectRecords } from './queries.js';
import { checkReferences } from './references.js';
import { contactView, dealView, leadView, statusOfStage, type LeadView } from '../../core/crm/views.js';

type Schemas = components['schemas'];
type LeadStatus = Schemas['Crm.LeadStatus'];

export { leadView, type LeadView };

const def = resourceDef('leads');
export const leadsPath = '/api/v1/leads';
const maxCustomFields = 50;
const maxCustomFieldName = 100;

function checkCustomFields(fields: Record<string, string>): void {
  const names = Object.keys(fields);
  if (names.length > maxCustomFields) throw workspaceErrors.invalid('body.custom_fields', `holds at most ${maxCustomFields} pairs`);
  const bad = names.find((n) => n.length < 1 || n.length > maxCustomFieldName || n.includes('\u0000'));
  if (bad !== undefined)
    throw workspaceErrors.invalid('body.custom_fields', `has a name that is not 1 to ${maxCustomFieldName} characters without U+0000`);
}

const leadNotFound = () => workspaceErrors.notFound('The lead');

/** Whether merging the patch into the row's data would change nothing. */
export function patchChangesNothing(row: CrmRow, patch: Record<string, unknown>): boolean {
  return Object.entries(patch).every(([k, v]) => sameValue(row.data[k] ?? null, v ?? null));
}

export class LeadService {
  constructor(private readonly deps: EventDeps) {}

  async list(part: Partition, query: { limit?: number; cursor?: string; status?: LeadStatus; owner_id?: string }): Promise<Page<LeadView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const list = listIn(part, 'leads', query);
    const rows = await selectRecords(db, part, 'leads', limit, readCursor(list, query.cursor), [
      { key: 'status', value: query.status },
      { key: 'owner_id', value: query.owner_id },
    ]);
    return pageOf(rows, limit, list, leadView);
  }

  async get(part: Partition, id: string): Promise<LeadView> {
    const db = await readPool(this.deps);
    const row = await selectOne(db, part, 'leads', id);
    if (!row) throw leadNotFound();
    return leadView(row);
  }

  async create(part: Partition, body: Schemas['Crm.LeadCreate']): Promise<LeadView> {
    if (body.custom_fields) checkCustomFields(body.custom_fields);
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      // The partner's defaults and field list (status new), then the fields only this API shows.
      const row = await insertRecord(
        tx,
        part,
        'leads',
        {
          full_name: body.name,
          phone: body.phone ?? null,
          email: body.email ?? null,
          source: body.source ?? null,
          notes: body.note ?? null,
        },
        { owner_id: null, custom_fields: body.custom_fields ?? {} },
        now,
      );
      emitAll(sink, crmRecordEvents('leads', null, row));
      return leadView(row);
    });
  }

  /**
   * Changes the status or the owner; an owner must be a member of the workspace. converted is set by convert
   * only. An empty body, or one that repeats the current values, changes nothing and emits nothing.
   */
  async update(part: Partition, id: string, body: Schemas['Crm.LeadUpdate']): Promise<LeadView> {
    if (body.status === 'converted')
      throw workspaceErrors.invalid('body.status', 'cannot be set to converted here; POST /leads/{id}/convert converts a lead');
    const patch: Record<string, unknown> = {};
    if (body.status !== undefined) patch.status = body.status;
    if (body.owner_id !== undefined) patch.owner_id = body.owner_id;
    if (Object.keys(patch).length === 0) return this.get(part, id);
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      // A missing lead answers 404 before its owner is judged.
      const before = await selectOne(tx, part, 'leads', id, true);
      if (!before) throw leadNotFound();
      await checkMembers(tx, part.workspaceId, [{ field: 'body.owner_id', id: body.owner_id }]);
      if (patchChangesNothing(before, patch)) return leadView(before);
      const after = (await patchRow(tx, part, def, id, patch, now))!;
      emitAll(sink, crmRecordEvents('leads', before, after));
      return leadView(after);
    });
  }

  /**
   * Converts a lead in one transaction: a contact from its name, e-mail, phone and source, a deal owned by its
   * owner for that contact, and the lead's status converted. 409 when it is already converted.
   */
  async convert(part: Partition, id: string, body: Schemas['Crm.LeadConvert']) {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const lead = await selectOne(tx, part, 'leads', id, true);
      if (!lead) throw leadNotFound();
      if (lead.data.status === 'converted') throw workspaceErrors.conflict('The lead is already converted.');
      await checkReferences(tx, part, [{ field: 'body.company_id', id: body.company_id, resource: 'companies' }]);
      const d = lead.data;
      const companyId = body.company_id ?? null;
      const contact = await insertRecord(
        tx,
        part,
        'contacts',
        { full_name: d.full_name, email: d.email ?? null, phone: d.phone ?? null, source: d.source ?? null, company_id: companyId },
        {},
        now,
      );
      const stage = body.stage ?? 'new';
      const deal = await insertRecord(
        tx,
        part,
        'deals',
        {
          title: body.deal_name ?? d.full_name,
          stage,
          status: statusOfStage(stage),
          amount: body.amount ?? null,
          currency: body.currency ?? null,
          contact_id: contact.id,
          company_id: companyId,
        },
        { owner_id: d.owner_id ?? null, lead_id: lead.id },
        now,
      );
      const after = (await patchRow(
        tx,
        part,
        def,
        id,
        { status: 'converted', converted_contact_id: contact.id, converted_deal_id: deal.id },
        now,
      ))!;
      emitAll(sink, crmRecordEvents('contacts', null, contact));
      emitAll(sink, crmRecordEvents('deals', null, deal));
      emitAll(sink, crmRecordEvents('leads', lead, after, { conversion: { contactId: contact.id, dealId: deal.id } }));
      return { lead: leadView(after), contact: contactView(contact), deal: dealView(deal) };
    });
  }
}
