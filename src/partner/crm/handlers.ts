// The 32 operations of the partner CRM API. Each resource's handlers are the same four thin functions over the
// generic service; the generated record type is applied here, and resources.test.ts keeps the registry's field
// lists equal to those types' schemas.
import type { components } from '../../../generated/types/partner.js';
import { keyOf, type PartnerContext } from '../base/context.js';
import type { PartnerDeps } from '../base/deps.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import type { Partition } from '../../core/crm/queries.js';
import { crmBasePath, type ResourceId } from '../../core/crm/resources.js';
import { CrmService, type ListQuery } from './service.js';
import { identityView, resourceIndex, scopeCatalogueView } from './views.js';

export type CrmOperationId =
  | 'listCrmResources'
  | 'getScopeCatalogue'
  | 'getApiIdentity'
  | 'listLeads'
  | 'getLead'
  | 'createLead'
  | 'updateLead'
  | 'listDeals'
  | 'getDeal'
  | 'createDeal'
  | 'updateDeal'
  | 'listContacts'
  | 'getContact'
  | 'createContact'
  | 'updateContact'
  | 'listCompanies'
  | 'getCompany'
  | 'createCompany'
  | 'updateCompany'
  | 'listActivities'
  | 'getActivity'
  | 'createActivity'
  | 'listInvoices'
  | 'getInvoice'
  | 'listQuotations'
  | 'getQuotation'
  | 'listPayments'
  | 'getPayment'
  | 'listProducts'
  | 'getProduct'
  | 'listSubscriptions'
  | 'getSubscription';

type Schemas = components['schemas'];

interface ListOf<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

function partitionOf(ctx: PartnerContext): Partition {
  const key = keyOf(ctx);
  return { workspaceId: key.workspaceId, environment: key.environment };
}

/** List, get, create and update of one resource, typed as its generated record T. */
function recordHandlers<T>(service: CrmService, resource: ResourceId) {
  return {
    async list({ query }: { query: ListQuery | undefined }, ctx: PartnerContext) {
      const page = await service.list(ctx.db, partitionOf(ctx), resource, query ?? {});
      return { status: 200 as const, body: page as unknown as ListOf<T> };
    },
    async get({ params }: { params: { id: string } }, ctx: PartnerContext) {
      const record = await service.get(ctx.db, partitionOf(ctx), resource, params.id);
      return { status: 200 as const, body: record as unknown as T };
    },
    async create({ body }: { body: Record<string, unknown> }, ctx: PartnerContext) {
      const record = await service.create(ctx.db, partitionOf(ctx), resource, body);
      return { status: 201 as const, body: record as unknown as T, location: `${crmBasePath}/${resource}/${record.id}` };
    },
    async update({ params, body }: { params: { id: string }; body: Record<string, unknown> }, ctx: PartnerContext) {
      const record = await service.update(ctx.db, partitionOf(ctx), resource, params.id, body);
      return { status: 200 as const, body: record as unknown as T };
    },
  };
}

export function crmHandlers(deps: PartnerDeps): PartnerFeatureHandlers<CrmOperationId> {
  const service = new CrmService(deps);
  const index = resourceIndex();
  const catalogue = scopeCatalogueView();
  const leads = recordHandlers<Schemas['Crm.Lead']>(service, 'leads');
  const deals = recordHandlers<Schemas['Crm.Deal']>(service, 'deals');
  const contacts = recordHandlers<Schemas['Crm.Contact']>(service, 'contacts');
  const companies = recordHandlers<Schemas['Crm.Company']>(service, 'companies');
  const activities = recordHandlers<Schemas['Crm.Activity']>(service, 'activities');
  const invoices = recordHandlers<Schemas['Crm.Invoice']>(service, 'invoices');
  const quotations = recordHandlers<Schemas['Crm.Quotation']>(service, 'quotations');
  const payments = recordHandlers<Schemas['Crm.Payment']>(service, 'payments');
  const products = recordHandlers<Schemas['Crm.Product']>(service, 'products');
  const subscriptions = recordHandlers<Schemas['Crm.Subscription']>(service, 'subscriptions');
  return {
    async listCrmResources() {
      return { status: 200, body: index };
    },
    async getScopeCatalogue() {
      return { status: 200, body: catalogue };
    },
    async getApiIdentity(_input, ctx) {
      return { status: 200, body: identityView(keyOf(ctx)) };
    },
    listLeads: leads.list,
    getLead: leads.get,
    createLead: leads.create,
    updateLead: leads.update,
    listDeals: deals.list,
    getDeal: deals.get,
    createDeal: deals.create,
    updateDeal: deals.update,
    listContacts: contacts.list,
    getContact: contacts.get,
    createContact: contacts.create,
    updateContact: contacts.update,
    listCompanies: companies.list,
    getCompany: companies.get,
    createCompany: companies.create,
    updateCompany: companies.update,
    listActivities: activities.list,
    getActivity: activities.get,
    createActivity: activities.create,
    listInvoices: invoices.list,
    getInvoice: invoices.get,
    listQuotations: quotations.list,
    getQuotation: quotations.get,
    listPayments: payments.list,
    getPayment: payments.get,
    listProducts: products.list,
    getProduct: products.get,
    listSubscriptions: subscriptions.list,
    getSubscription: subscriptions.get,
  };
}
