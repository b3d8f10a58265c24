// Contacts and companies: the partner's crm.contact and crm.company rows under this API's names.
import type { EventDeps } from '../../core/events/outbox.js';
import { CrmFamilyService } from './family.js';
import { companyView, contactView, type CompanyView, type ContactView } from '../../core/crm/views.js';

export function contactService(deps: EventDeps): CrmFamilyService<ContactView> {
  return new CrmFamilyService(deps, {
    family: 'contacts',
    noun: 'The contact',
    view: contactView,
    references: { company_id: 'companies' },
    members: [],
    extra: [],
    filters: { status: 'status', company_id: 'company_id' },
  });
}

export function companyService(deps: EventDeps): CrmFamilyService<CompanyView> {
  return new CrmFamilyService(deps, {
    family: 'companies',
    noun: 'The company',
    view: companyView,
    references: {},
    members: [],
    extra: [],
    filters: { status: 'status' },
  });
}
