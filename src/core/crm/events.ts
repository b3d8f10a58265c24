// The events of a write to a CRM record, whichever API made it: the workspace API's services and the partner API's
// CrmService both call crmRecordEvents with the row before and after the write, so a lead created or changed
// through either API emits the same lead events (and likewise deals, contacts and companies).
import type { CrmRow } from './queries.js';
import type { ResourceId } from './resources.js';
import type { Changes, PendingEvent } from '../events/catalogue.js';
import { changesOf, omit, pick } from '../events/changes.js';
import { companyView, contactView, dealView, leadView } from './views.js';

/** The seed's lead data shape, exactly. */
export function leadEventData(row: CrmRow) {
  const v = leadView(row);
  return {
    id: v.id,
    name: v.name,
    phone: v.phone,
    email: v.email,
    source: v.source,
    status: v.status,
    owner_id: v.owner_id,
    created_at: v.created_at,
    custom_fields: v.custom_fields,
  };
}

/** The seed's deal data shape, exactly. */
export function dealEventData(row: CrmRow) {
  const v = dealView(row);
  return { id: v.id, name: v.name, stage: v.stage, amount: v.amount, owner_id: v.owner_id };
}

// The fields compared for changes, by this API's names; company_name is the partner's own lead field.
const leadFields = ['name', 'phone', 'email', 'source', 'status', 'owner_id', 'note', 'custom_fields', 'company_name'] as const;
const dealFields = [
  'name',
  'stage',
  'status',
  'amount',
  'currency',
  'owner_id',
  'contact_id',
  'company_id',
  'lead_id',
  'expected_close_date',
  'note',
] as const;
const contactFields = ['name', 'email', 'phone', 'source', 'status', 'job_title', 'company_id', 'note'] as const;

function leadSnapshot(row: CrmRow): Record<string, unknown> {
  return { ...leadView(row), company_name: row.data.company_name ?? null };
}

export interface CrmEventOptions {
  /** The write is a conversion (POST /leads/{id}/convert): lead.converted instead of lead.updated. */
  conversion?: { contactId: string; dealId: string };
}

function leadEvents(before: CrmRow | null, after: CrmRow, options: CrmEventOptions): PendingEvent[] {
  const data = leadEventData(after);
  if (!before) return [{ event: 'lead.created', data }];
  const changes = changesOf(leadSnapshot(before), leadSnapshot(after), leadFields);
  const events: PendingEvent[] = [];
  const others = omit(changes, ['owner_id']);
  if (options.conversion) {
    const converted: Changes = {
      ...others,
      contact_id: { from: null, to: options.conversion.contactId },
      deal_id: { from: null, to: options.conversion.dealId },
    };
    events.push({ event: 'lead.converted', data, changes: converted });
  } else if (others) {
    events.push({ event: 'lead.updated', data, changes: others });
  }
  const owner = pick(changes, ['owner_id']);
  if (owner) events.push({ event: 'lead.assigned', data, changes: owner });
  return events;
}

function dealEvents(before: CrmRow | null, after: CrmRow): PendingEvent[] {
  const data = dealEventData(after);
  if (!before) return [{ event: 'deal.created', data }];
  const changes = changesOf(dealView(before), dealView(after), dealFields);
  const events: PendingEvent[] = [];
  const stage = pick(changes, ['stage']);
  if (stage) events.push({ event: 'deal.stage_changed', data, changes: stage });
  const closedAs = changes.status?.to;
  if (closedAs === 'won' || closedAs === 'lost')
    events.push({ event: closedAs === 'won' ? 'deal.won' : 'deal.lost', data, changes: { status: changes.status! } });
  // A move back to open is an ordinary change of the deal.
  const others = omit(changes, closedAs === 'won' || closedAs === 'lost' ? ['stage', 'status'] : ['stage']);
  if (others) events.push({ event: 'deal.updated', data, changes: others });
  return events;
}

function contactEvents(before: CrmRow | null, after: CrmRow): PendingEvent[] {
  const data = contactView(after);
  if (!before) return [{ event: 'contact.created', data }];
  const changes = changesOf(contactView(before), data, contactFields);
  return Object.keys(changes).length > 0 ? [{ event: 'contact.updated', data, changes }] : [];
}

/**
 * The events of one write to a CRM record: `before` is null for a creation. Updates that change nothing emit
 * nothing. Resources without catalogue events (activities, the finance records) emit nothing; companies emit
 * company.created only (the catalogue has no company.updated).
 */
export function crmRecordEvents(resource: ResourceId, before: CrmRow | null, after: CrmRow, options: CrmEventOptions = {}): PendingEvent[] {
  switch (resource) {
    case 'leads':
      return leadEvents(before, after, options);
    case 'deals':
      return dealEvents(before, after);
    case 'contacts':
      return contactEvents(before, after);
    case 'companies':
      return before ? [] : [{ event: 'company.created', data: companyView(after) }];
    default:
      return [];
  }
}
