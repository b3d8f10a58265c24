// Multi-step approvals: requested by a member (approval.requested) with one approver per step; each step's
// approver decides in turn. Approve completes the step (approval.step_completed) and, after the last one, the
// request (approval.approved); reject ends it (approval.rejected); its requester may cancel it while pending
// (approval.cancelled). Deciding for someone else, or cancelling someone else's request, is 403 forbidden.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/queries.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { checkMembers } from '../base/checks.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { approvalById, approvalPage, decisionPage, decisionRows, insertApproval, insertDecision, setApprovalProgress } from './queries.js';
import { approvalView, decisionView, type ApprovalView, type DecisionRow, type DecisionView } from './views.js';

export const approvalsPath = '/api/v1/approvals';
const notFound = () => workspaceErrors.notFound('The approval request');

async function decisionsOf(db: Runner, ids: string[]): Promise<Map<string, DecisionRow[]>> {
  const result = new Map<string, DecisionRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return result;
  for (const d of await decisionRows(db, ids)) result.get(d.approval_id)!.push(d);
  return result;
}

export class ApprovalService {
  constructor(private readonly deps: EventDeps) {}

  async list(
    part: Partition,
    query: { limit?: number; cursor?: string; status?: string; requested_by?: string; approver_id?: string },
  ): Promise<Page<ApprovalView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const list = listIn(part, 'approvals', query);
    const after = readCursor(list, query.cursor);
    const filter = { status: query.status, requestedBy: query.requested_by, approverId: query.approver_id };
    const found = await approvalPage(db, part, filter, after, limit + 1);
    const decisions = await decisionsOf(
      db,
      found.slice(0, limit).map((r) => r.id),
    );
    return pageOf(found, limit, list, (r) => approvalView(r, decisions.get(r.id) ?? []));
  }

  async get(part: Partition, id: string): Promise<ApprovalView> {
    const db = await readPool(this.deps);
    const row = await approvalById(db, part, id);
    if (!row) throw notFound();
    return approvalView(row, (await decisionsOf(db, [id])).get(id)!);
  }

  async create(
    part: Partition,
    body: { title: string; description?: string | null; requested_by: string; approver_ids: string[] },
  ): Promise<ApprovalView> {
    if (new Set(body.approver_ids).size !== body.approver_ids.length)
      throw workspaceErrors.invalid('body.approver_ids', 'names the same member for two steps');
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      await checkMembers(tx, part.workspaceId, [
        { field: 'body.requested_by', id: body.requested_by },
        ...body.approver_ids.map((id) => ({ field: 'body.approver_ids', id })),
      ]);
      const created = await insertApproval(tx, part, {
        id: newId(),
        title: body.title,
        description: body.description ?? null,
        requestedBy: body.requested_by,
        approverIds: body.approver_ids,
        at: now,
      });
      const view = approvalView(created, []);
      sink.emit('approval.requested', view);
      return view;
    });
  }

  async cancel(part: Partition, id: string, requestedBy: string): Promise<ApprovalView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await approvalById(tx, part, id, true);
      if (!before) throw notFound();
      if (before.requested_by !== requestedBy)
        throw workspaceErrors.notTheActor('Only the member who requested the approval may cancel it.');
      const decisions = (await decisionsOf(tx, [id])).get(id)!;
      if (before.status === 'cancelled') return approvalView(before, decisions);
      if (before.status !== 'pending')
        throw workspaceErrors.conflict(`The approval is ${before.status}; only a pending one can be cancelled.`);
      const cancelled = await setApprovalProgress(tx, id, { status: 'cancelled', currentStep: null }, now);
      const view = approvalView(cancelled, decisions);
      sink.emit('approval.cancelled', view, {
        status: { from: 'pending', to: 'cancelled' },
        current_step: { from: before.current_step, to: null },
      });
      return view;
    });
  }

  async listDecisions(part: Partition, id: string, query: { limit?: number; cursor?: string }): Promise<Page<DecisionView>> {
    const db = await readPool(this.deps);
    if (!(await approvalById(db, part, id))) throw notFound();
    const limit = query.limit ?? defaultLimit;
    const list = listIn(part, 'approval_decisions', { approval_id: id });
    const after = readCursor(list, query.cursor);
    const found = await decisionPage(db, id, after, limit + 1);
    return pageOf(found, limit, list, decisionView);
  }

  async decide(
    part: Partition,
    id: string,
    body: { approver_id: string; decision: 'approve' | 'reject'; comment?: string | null },
  ): Promise<DecisionView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await approvalById(tx, part, id, true);
      if (!before) throw notFound();
      if (before.status !== 'pending' || before.current_step === null)
        throw workspaceErrors.conflict(`The approval is ${before.status}; it takes no more decisions.`);
      const step = before.current_step;
      if ((before.approver_ids as string[])[step - 1] !== body.approver_id)
        throw workspaceErrors.notTheActor(`Only the approver of step ${step} may decide it now.`);
      const inserted = await insertDecision(tx, {
        id: newId(),
        approvalId: id,
        step,
        approverId: body.approver_id,
        decision: body.decision,
        comment: body.comment ?? null,
        at: now,
      });
      const last = step === (before.approver_ids as string[]).length;
      const status = body.decision === 'reject' ? 'rejected' : last ? 'approved' : 'pending';
      const nextStep = status === 'pending' ? step + 1 : null;
      const updated = await setApprovalProgress(tx, id, { status, currentStep: nextStep }, now);
      const view = approvalView(updated, (await decisionsOf(tx, [id])).get(id)!);
      if (body.decision === 'approve') sink.emit('approval.step_completed', view, { current_step: { from: step, to: nextStep } });
      if (status !== 'pending')
        sink.emit(status === 'approved' ? 'approval.approved' : 'approval.rejected', view, { status: { from: 'pending', to: status } });
      return decisionView(inserted);
    });
  }
}
