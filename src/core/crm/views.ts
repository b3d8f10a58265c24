// The workspace API's shapes of the CRM records it shares with the partner API (crm_records). Where the two APIs
// name a field differently the row keeps the partner's key (full_name, title, notes) and this file renames it;
// fields only this API shows (owner_id, custom_fields, lead_id, sent_at, ...) live beside them in the row's data.
import type { components } from '../../../generated/types/workspace.js';
import type { CrmRow } from './queries.js';

type Schemas = components['schemas'];
export type LeadView = Schemas['Crm.Lead'];
export type DealView = Schemas['Crm.Deal'];
export type ContactView = Schemas['Crm.Contact'];
export type CompanyView = Schemas['Crm.Company'];
export type QuotationView = Schemas['Crm.Quotation'];

/** This API's field → the row's data key, where they differ. */
export const dataKeys = {
  leads: { name: 'full_name', note: 'notes' },
  deals: { name: 'title', note: 'notes' },
  contacts: { name: 'full_name', note: 'notes' },
  companies: { note: 'notes' },
  quotations: {},
} as const satisfies Record<string, Record<string, string>>;

export type CrmFamily = keyof typeof dataKeys;

/** A body of this API with its fields renamed to the row's data keys. */
export function toData(family: CrmFamily, body: Record<string, unknown>): Record<string, unknown> {
  const keys = dataKeys[family] as Record<string, string>;
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) if (value !== undefined) data[keys[field] ?? field] = value;
  return data;
}

export function dataKeyOf(family: CrmFamily, field: string): string {
  return (dataKeys[family] as Record<string, string>)[field] ?? field;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function times(row: CrmRow) {
  return { created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

export function leadView(row: CrmRow): LeadView {
  const d = row.data;
  return {
    id: row.id,
    name: String(d.full_name ?? ''),
    phone: text(d.phone),
    email: text(d.email),
    source: text(d.source),
    status: d.status as LeadView['status'],
    owner_id: text(d.owner_id),
    note: text(d.notes),
    custom_fields: (d.custom_fields && typeof d.custom_fields === 'object' ? d.custom_fields : {}) as Record<string, string>,
    ...times(row),
  };
}

/** The deal's status follows its stage in this API: won, lost, otherwise open. */
export function statusOfStage(stage: string): 'open' | 'won' | 'lost' {
  return stage === 'won' || stage === 'lost' ? stage : 'open';
}

export function dealView(row: CrmRow): DealView {
  const d = row.data;
  return {
    id: row.id,
    name: String(d.title ?? ''),
    stage: text(d.stage),
    status: (d.status ?? 'open') as DealView['status'],
    amount: num(d.amount),
    currency: text(d.currency),
    owner_id: text(d.owner_id),
    contact_id: text(d.contact_id),
    company_id: text(d.company_id),
    lead_id: text(d.lead_id),
    expected_close_date: text(d.expected_close_date),
    note: text(d.notes),
    ...times(row),
  };
}

export function contactView(row: CrmRow): ContactView {
  const d = row.data;
  return {
    id: row.id,
    name: String(d.full_name ?? ''),
    email: text(d.email),
    phone: text(d.phone),
    source: text(d.source),
    status: (d.status ?? 'active') as ContactView['status'],
    job_title: text(d.job_title),
    company_id: text(d.company_id),
    note: text(d.notes),
    ...times(row),
  };
}

export function companyView(row: CrmRow): CompanyView {
  const d = row.data;
  return {
    id: row.id,
    name: String(d.name ?? ''),
    domain: text(d.domain),
    industry: text(d.industry),
    email: text(d.email),
    phone: text(d.phone),
    status: (d.status ?? 'active') as CompanyView['status'],
    note: text(d.notes),
    ...times(row),
  };
}

export function quotationView(row: CrmRow): QuotationView {
  const d = row.data;
  return {
    id: row.id,
    number: String(d.number ?? ''),
    status: (d.status ?? 'draft') as QuotationView['status'],
    currency: String(d.currency ?? ''),
    amount_total: num(d.amount_total) ?? 0,
    deal_id: text(d.deal_id),
    contact_id: text(d.contact_id),
    company_id: text(d.company_id),
    valid_until: text(d.valid_until),
    sent_at: text(d.sent_at),
    accepted_at: text(d.accepted_at),
    ...times(row),
  };
}
