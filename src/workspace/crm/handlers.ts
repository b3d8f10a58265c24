// The CRM families (/leads, /deals, /contacts, /companies, /quotations): typed in, one service call, the record out.
import type { WorkspaceDeps } from '../base/deps.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { companyService, contactService } from './contacts.js';
import { DealService } from './deals.js';
import { LeadService, leadsPath } from './leads.js';
import { partitionOf } from './partition.js';
import { QuotationService } from './quotations.js';

export type CrmOperationId =
  | 'listLeads'
  | 'createLead'
  | 'getLead'
  | 'updateLead'
  | 'convertLead'
  | 'listDeals'
  | 'createDeal'
  | 'getDeal'
  | 'updateDeal'
  | 'listContacts'
  | 'createContact'
  | 'getContact'
  | 'updateContact'
  | 'listCompanies'
  | 'createCompany'
  | 'getCompany'
  | 'updateCompany'
  | 'listQuotations'
  | 'createQuotation'
  | 'getQuotation'
  | 'updateQuotation'
  | 'sendQuotation'
  | 'acceptQuotation'
  | 'declineQuotation';

export function crmHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<CrmOperationId> {
  const leads = new LeadService(deps);
  const deals = new DealService(deps);
  const contacts = contactService(deps);
  const companies = companyService(deps);
  const quotations = new QuotationService(deps);
  return {
    async listLeads({ query }, ctx) {
      return { status: 200, body: await leads.list(partitionOf(ctx), query ?? {}) };
    },
    async createLead({ body }, ctx) {
      const lead = await leads.create(partitionOf(ctx), body);
      return { status: 201, body: lead, location: `${leadsPath}/${lead.id}` };
    },
    async getLead({ params }, ctx) {
      return { status: 200, body: await leads.get(partitionOf(ctx), params.id) };
    },
    async updateLead({ params, body }, ctx) {
      return { status: 200, body: await leads.update(partitionOf(ctx), params.id, body) };
    },
    async convertLead({ params, body }, ctx) {
      return { status: 200, body: await leads.convert(partitionOf(ctx), params.id, body ?? {}) };
    },

    async listDeals({ query }, ctx) {
      return { status: 200, body: await deals.list(partitionOf(ctx), query ?? {}) };
    },
    async createDeal({ body }, ctx) {
      const deal = await deals.create(partitionOf(ctx), body);
      return { status: 201, body: deal, location: `/api/v1/deals/${deal.id}` };
    },
    async getDeal({ params }, ctx) {
      return { status: 200, body: await deals.get(partitionOf(ctx), params.id) };
    },
    async updateDeal({ params, body }, ctx) {
      return { status: 200, body: await deals.updateDeal(partitionOf(ctx), params.id, body) };
    },

    async listContacts({ query }, ctx) {
      return { status: 200, body: await contacts.list(partitionOf(ctx), query ?? {}) };
    },
    async createContact({ body }, ctx) {
      const contact = await contacts.create(partitionOf(ctx), body);
      return { status: 201, body: contact, location: `/api/v1/contacts/${contact.id}` };
    },
    async getContact({ params }, ctx) {
      return { status: 200, body: await contacts.get(partitionOf(ctx), params.id) };
    },
    async updateContact({ params, body }, ctx) {
      return { status: 200, body: await contacts.update(partitionOf(ctx), params.id, body) };
    },

    async listCompanies({ query }, ctx) {
      return { status: 200, body: await companies.list(partitionOf(ctx), query ?? {}) };
    },
    async createCompany({ body }, ctx) {
      const company = await companies.create(partitionOf(ctx), body);
      return { status: 201, body: company, location: `/api/v1/companies/${company.id}` };
    },
    async getCompany({ params }, ctx) {
      return { status: 200, body: await companies.get(partitionOf(ctx), params.id) };
    },
    async updateCompany({ params, body }, ctx) {
      return { status: 200, body: await companies.update(partitionOf(ctx), params.id, body) };
    },

    async listQuotations({ query }, ctx) {
      return { status: 200, body: await quotations.list(partitionOf(ctx), query ?? {}) };
    },
    async createQuotation({ body }, ctx) {
      const quotation = await quotations.create(partitionOf(ctx), body);
      return { status: 201, body: quotation, location: `/api/v1/quotations/${quotation.id}` };
    },
    async getQuotation({ params }, ctx) {
      return { status: 200, body: await quotations.get(partitionOf(ctx), params.id) };
    },
    async updateQuotation({ params, body }, ctx) {
      return { status: 200, body: await quotations.updateDraft(partitionOf(ctx), params.id, body) };
    },
    async sendQuotation({ params }, ctx) {
      return { status: 200, body: await quotations.move(partitionOf(ctx), params.id, 'send') };
    },
    async acceptQuotation({ params }, ctx) {
      return { status: 200, body: await quotations.move(partitionOf(ctx), params.id, 'accept') };
    },
    async declineQuotation({ params }, ctx) {
      return { status: 200, body: await quotations.move(partitionOf(ctx), params.id, 'decline') };
    },
  };
}
