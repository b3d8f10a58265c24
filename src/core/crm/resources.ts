// The ten partner CRM resources. They share one table (crm_records), so everything that differs between them is
// written down here: fields and their defaults, status, writability, scopes, not-found code and references.
// resources.test.ts compares the field lists with the generated OpenAPI document, so the two cannot drift.
import type { CrmNotFoundCode } from './not-found-codes.js';

export type ResourceId =
  'leads' | 'deals' | 'contacts' | 'companies' | 'activities' | 'invoices' | 'quotations' | 'payments' | 'products' | 'subscriptions';

export type Writable = 'create_update' | 'create_only' | 'read_only';

/** A field that has no default: the spec requires it on create (or, for read-only resources, on insert). */
export const required = Symbol('required');
/** A field that defaults to the time of creation. */
export const createdNow = Symbol('createdNow');

/** A field's default when a create leaves it out: null for every optional field, a value, or one of the markers. */
export type FieldDefault = typeof required | typeof createdNow | string | number | null;

/** A field that must name a record of another resource in the same workspace and environment. */
export type Reference =
  | { field: string; resource: ResourceId }
  /** Polymorphic: the resource is chosen by the value of another field (activity.entity_type → entity_id). */
  | { field: string; byField: string; resources: Record<string, ResourceId> };

export interface ResourceDef {
  id: ResourceId;
  /** The object value of its records, e.g. crm.lead. */
  object: string;
  /** The record's own fields in the spec's order (object, id, created_at, updated_at are common to all). */
  fields: Readonly<Record<string, FieldDefault>>;
  /** The field kept in sync with the status column and filtered by list; null when there is no status. */
  statusField: 'status' | null;
  /** Fields holding instants, normalised to UTC on write. */
  instantFields: readonly string[];
  writable: Writable;
  notFound: CrmNotFoundCode;
  readScope: string;
  writeScope: string | null;
  references: readonly Reference[];
}

const entityResources: Record<string, ResourceId> = { lead: 'leads', deal: 'deals', contact: 'contacts', company: 'companies' };

const defs: ResourceDef[] = [
  {
    id: 'leads',
    object: 'crm.lead',
    fields: { full_name: required, email: null, phone: null, source: null, status: 'new', company_name: null, notes: null },
    statusField: 'status',
    instantFields: [],
    writable: 'create_update',
    notFound: 'lead_not_found',
    readScope: 'crm_leads:read',
    writeScope: 'crm_leads:write',
    references: [],
  },
  {
    id: 'deals',
    object: 'crm.deal',
    fields: {
      title: required,
      status: 'open',
      stage: null,
      amount: null,
      currency: null,
      contact_id: null,
      company_id: null,
      expected_close_date: null,
      notes: null,
    },
    statusField: 'status',
    instantFields: [],
    writable: 'create_update',
    notFound: 'deal_not_found',
    readScope: 'crm_deals:read',
    writeScope: 'crm_deals:write',
    references: [
      { field: 'contact_id', resource: 'contacts' },
      { field: 'company_id', resource: 'companies' },
    ],
  },
  {
    id: 'contacts',
    object: 'crm.contact',
    fields: {
      full_name: required,
      email: null,
      phone: null,
      source: null,
      status: 'active',
      job_title: null,
      company_id: null,
      notes: null,
    },
    statusField: 'status',
    instantFields: [],
    writable: 'create_update',
    notFound: 'contact_not_found',
    readScope: 'crm_contacts:read',
    writeScope: 'crm_contacts:write',
    references: [{ field: 'company_id', resource: 'companies' }],
  },
  {
    id: 'companies',
    object: 'crm.company',
    fields: { name: required, domain: null, industry: null, email: null, phone: null, status: 'active', notes: null },
    statusField: 'status',
    instantFields: [],
    writable: 'create_update',
    notFound: 'company_not_found',
    readScope: 'crm_companies:read',
    writeScope: 'crm_companies:write',
    references: [],
  },
  {
    id: 'activities',
    object: 'crm.activity',
    fields: { activity_type: required, entity_type: required, entity_id: required, subject: null, body: null, occurred_at: createdNow },
    statusField: null,
    instantFields: ['occurred_at'],
    writable: 'create_only',
    notFound: 'activity_not_found',
    readScope: 'crm_activities:read',
    writeScope: 'crm_activities:write',
    references: [{ field: 'entity_id', byField: 'entity_type', resources: entityResources }],
  },
  // Finance and catalogue: read only through the API by fixed design; rows come from insertCrmRecord.
  {
    id: 'invoices',
    object: 'crm.invoice',
    fields: {
      number: required,
      status: 'draft',
      currency: required,
      amount_total: required,
      amount_due: required,
      company_id: null,
      contact_id: null,
      deal_id: null,
      issued_on: null,
      due_on: null,
    },
    statusField: 'status',
    instantFields: [],
    writable: 'read_only',
    notFound: 'invoice_not_found',
    readScope: 'crm_invoices:read',
    writeScope: null,
    references: [],
  },
  {
    id: 'quotations',
    object: 'crm.quotation',
    fields: {
      number: required,
      status: 'draft',
      currency: required,
      amount_total: required,
      company_id: null,
      contact_id: null,
      deal_id: null,
      valid_until: null,
    },
    statusField: 'status',
    instantFields: [],
    writable: 'read_only',
    notFound: 'quotation_not_found',
    readScope: 'crm_quotations:read',
    writeScope: null,
    references: [],
  },
  {
    id: 'payments',
    object: 'crm.payment',
    fields: { status: 'pending', amount: required, currency: required, method: required, invoice_id: null, paid_at: null },
    statusField: 'status',
    instantFields: ['paid_at'],
    writable: 'read_only',
    notFound: 'payment_not_found',
    readScope: 'crm_payments:read',
    writeScope: null,
    references: [],
  },
  {
    id: 'products',
    object: 'crm.product',
    fields: { name: required, sku: null, description: null, unit_price: null, currency: null, status: 'active' },
    statusField: 'status',
    instantFields: [],
    writable: 'read_only',
    notFound: 'product_not_found',
    readScope: 'crm_products:read',
    writeScope: null,
    references: [],
  },
  {
    id: 'subscriptions',
    object: 'crm.subscription',
    fields: {
      status: 'active',
      company_id: null,
      contact_id: null,
      product_id: null,
      quantity: required,
      currency: required,
      unit_price: required,
      current_period_start: null,
      current_period_end: null,
      canceled_at: null,
    },
    statusField: 'status',
    instantFields: ['current_period_start', 'current_period_end', 'canceled_at'],
    writable: 'read_only',
    notFound: 'subscription_not_found',
    readScope: 'crm_subscriptions:read',
    writeScope: null,
    references: [],
  },
];

/** Every resource in the order the index lists them. */
export const crmResources: readonly ResourceDef[] = defs;

const byId = new Map(defs.map((d) => [d.id, d]));

export function resourceDef(id: ResourceId): ResourceDef {
  const def = byId.get(id);
  if (!def) throw new Error(`unknown CRM resource ${id}`);
  return def;
}

export function isResourceId(value: string): value is ResourceId {
  return byId.has(value as ResourceId);
}

export const crmBasePath = '/api/v1/partner/crm';
