// Deals: the partner's crm.deal rows (name ↔ title, note ↔ notes) with owner_id and lead_id beside them. The stage
// drives the status in this API: won and lost close the deal, any other stage (re)opens it.
import type { Partition } from '../../core/crm/queries.js';
import type { EventDeps } from '../../core/events/outbox.js';
import { CrmFamilyService } from './family.js';
import { dealView, statusOfStage, type DealView } from '../../core/crm/views.js';

export class DealService extends CrmFamilyService<DealView> {
  constructor(deps: EventDeps) {
    super(deps, {
      family: 'deals',
      noun: 'The deal',
      view: dealView,
      references: { contact_id: 'contacts', company_id: 'companies' },
      members: ['owner_id'],
      extra: ['owner_id', 'lead_id'],
      filters: { stage: 'stage', status: 'status', owner_id: 'owner_id', contact_id: 'contact_id', company_id: 'company_id' },
    });
  }

  override async create(part: Partition, body: Record<string, unknown>): Promise<DealView> {
    const stage = (body.stage as string | undefined) ?? 'new';
    return super.create(part, { ...body, stage, status: statusOfStage(stage) });
  }

  updateDeal(part: Partition, id: string, body: Record<string, unknown>): Promise<DealView> {
    return super.update(part, id, body, {
      derive: (patch) => {
        if (typeof patch.stage === 'string') patch.status = statusOfStage(patch.stage);
      },
    });
  }
}

export const dealsPath = '/api/v1/deals';
