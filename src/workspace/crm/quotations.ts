// Quotations: the partner's crm.quotation rows (read only through the partner API), made and moved here. A draft
// is edited, sent (quotation.sent), then accepted (quotation.accepted) while valid_until has not passed, or
// declined. Repeating the move a quotation already made answers it unchanged; any other move is 409.
import { patchRow } from '../../core/crm/records.js';
import { selectOne, type CrmRow, type Partition } from '../../core/crm/queries.js';
import { resourceDef } from '../../core/crm/resources.js';
import { newId } from '../../platform/ids.js';
import { todayOf } from '../base/checks.js';
import { changesOf } from '../../core/events/changes.js';
import type { WorkspaceEvent } from '../../core/events/catalogue.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../base/errors.js';
import { CrmFamilyService } from './family.js';
import { quotationView, type QuotationView } from '../../core/crm/views.js';

type Status = QuotationView['status'];

const def = resourceDef('quotations');

interface Move {
  to: Status;
  /** The status it must be in (else 409), besides `to` itself, which is a repeat. */
  from: Status;
  /** The stamp this move sets, beside the status. */
  stamp?: 'sent_at' | 'accepted_at';
  event?: WorkspaceEvent;
}

const moves = {
  send: { to: 'sent', from: 'draft', stamp: 'sent_at', event: 'quotation.sent' },
  accept: { to: 'accepted', from: 'sent', stamp: 'accepted_at', event: 'quotation.accepted' },
  decline: { to: 'declined', from: 'sent' },
} as const satisfies Record<string, Move>;

export type QuotationMove = keyof typeof moves;

function statusOf(row: CrmRow): Status {
  return (row.data.status ?? 'draft') as Status;
}

export class QuotationService extends CrmFamilyService<QuotationView> {
  constructor(deps: EventDeps) {
    super(deps, {
      family: 'quotations',
      noun: 'The quotation',
      view: quotationView,
      references: { deal_id: 'deals', contact_id: 'contacts', company_id: 'companies' },
      members: [],
      extra: [],
      filters: { status: 'status', deal_id: 'deal_id' },
    });
  }

  override async create(part: Partition, body: Record<string, unknown>): Promise<QuotationView> {
    const id = newId();
    // The default number comes from the id's time-ordered head, so numbers of one workspace sort by creation.
    const number = (body.number as string | undefined) ?? `Q-${id.slice(0, 8).toUpperCase()}`;
    return super.create(part, { ...body, number, status: 'draft' }, { id, extraDefaults: { sent_at: null, accepted_at: null } });
  }

  updateDraft(part: Partition, id: string, body: Record<string, unknown>): Promise<QuotationView> {
    return super.update(part, id, body, {
      guard: (row) => {
        if (statusOf(row) !== 'draft') throw workspaceErrors.conflict(`The quotation is ${statusOf(row)}; only a draft can be changed.`);
      },
      events: () => undefined,
    });
  }

  async move(part: Partition, id: string, name: QuotationMove): Promise<QuotationView> {
    const move: Move = moves[name];
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await selectOne(tx, part, 'quotations', id, true);
      if (!before) throw this.notFound();
      const status = statusOf(before);
      if (status === move.to) return quotationView(before);
      if (status !== move.from)
        throw workspaceErrors.conflict(`The quotation is ${status}; only a ${move.from} quotation can be ${move.to}.`);
      const validUntil = before.data.valid_until;
      if (name === 'accept' && typeof validUntil === 'string' && validUntil < todayOf(now)) {
        throw workspaceErrors.conflict(`The quotation was valid until ${validUntil}; it can no longer be accepted.`);
      }
      const patch: Record<string, unknown> = { status: move.to };
      if (move.stamp) patch[move.stamp] = now.toISOString();
      const after = (await patchRow(tx, part, def, id, patch, now))!;
      const view = quotationView(after);
      if (move.event) sink.emit(move.event, view, changesOf(quotationView(before), view, ['status', 'sent_at', 'accepted_at']));
      return view;
    });
  }
}

export const quotationsPath = '/api/v1/quotations';
