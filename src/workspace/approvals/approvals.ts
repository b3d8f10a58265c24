// Multi-step approvals: requested by a member (approval.requested) with one approver per step; each step's
// approver decides in turn. Approve completes the step (approval.step_completed) and, after the last one, the
// request (approval.approved); reject ends it (approval.rejected); its requester may cancel it while pending
// (approval.cancelled). Deciding for someone else, or cancelling someone else's request, is 403 forbidden.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/records.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { checkMembers } from '../common/checks.js';
import { Filters } from '../../platform/db/filters.js';
import { defaultLimit, pageOf, readCursor } from '../common/paging.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';
import {
  approvalColumns,
  approvalView,
  decisionColumns,
  decisionView,
  type ApprovalRow,
  type ApprovalView,
  type DecisionRow,
  type DecisionView,
} from './views.js';

export const approvalsPath = '/api/v1/approvals';
const notFound = () => workspaceErrors.notFound('The approval request');

async function decisionsOf(db: Queryable, ids: string[]): Promise<Map<string, DecisionRow[]>> {
  const result = new Map<string, DecisionRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return result;
  const { rows } = await db.query<DecisionRow>(
    `select ${decisionColumns} from approval_decisions where approval_id = any($1::uuid[]) order by step`,
    [ids],
  );
  for (const d of rows) result.get(d.approval_id)!.push(d);
  return result;
}

async function findApproval(db: Queryable, part: Partition, id: string, lock = false): Promise<ApprovalRow | undefined> {
  const { rows } = await db.query<ApprovalRow>(
    `select ${approvalColumns} from approvals where id = $1 and workspace_id = $2 and environment = $3${lock ? ' for update' : ''}`,
    [id, part.workspaceId, part.environment],
  );
  return rows[0];
}

export class ApprovalService {
  constructor(private readonly deps: EventDeps) {}

  async list(
    part: Partition,
    query: { limit?: number; cursor?: string; status?: string; requested_by?: string; approver_id?: string },
  ): Promise<Page<ApprovalView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('approvals', query.cursor);
    const where = new Filters([part.workspaceId, part.environment])
      .eq('status', query.status)
      .eq('requested_by', query.requested_by)
      .raw("status = 'pending' and approver_ids[current_step] = $?::uuid", query.approver_id)
      .raw('id < $?', after?.id);
    const { rows } = await db.query<ApprovalRow>(
      `select ${approvalColumns} from approvals where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(limit + 1)}`,
      where.params,
    );
    const decisions = await decisionsOf(
      db,
      rows.slice(0, limit).map((r) => r.id),
    );
    return pageOf(rows, limit, 'approvals', (r) => approvalView(r, decisions.get(r.id) ?? []));
  }

  async get(part: Partition, id: string): Promise<ApprovalView> {
    const db = await readPool(this.deps);
    const row = await findApproval(db, part, id);
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
      const { rows } = await tx.query<ApprovalRow>(
        `insert into approvals (id, workspace_id, environment, title, description, requested_by, approver_ids, status, current_step, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7::uuid[], 'pending', 1, $8, $8) returning ${approvalColumns}`,
        [newId(), part.workspaceId, part.environment, body.title, body.description ?? null, body.requested_by, body.approver_ids, now],
      );
      const view = approvalView(rows[0]!, []);
      sink.emit('approval.requested', view);
      return view;
    });
  }

  async cancel(part: Partition, id: string, requestedBy: string): Promise<ApprovalView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await findApproval(tx, part, id, true);
      if (!before) throw notFound();
      if (before.requested_by !== requestedBy)
        throw workspaceErrors.notTheActor('Only the member who requested the approval may cancel it.');
      const decisions = (await decisionsOf(tx, [id])).get(id)!;
      if (before.status === 'cancelled') return approvalView(before, decisions);
      if (before.status !== 'pending')
        throw workspaceErrors.conflict(`The approval is ${before.status}; only a pending one can be cancelled.`);
      const { rows } = await tx.query<ApprovalRow>(
        `update approvals set status = 'cancelled', current_step = null, completed_at = $2, updated_at = $2 where id = $1 returning ${approvalColumns}`,
        [id, now],
      );
      const view = approvalView(rows[0]!, decisions);
      sink.emit('approval.cancelled', view, {
        status: { from: 'pending', to: 'cancelled' },
        current_step: { from: before.current_step, to: null },
      });
      return view;
    });
  }

  async listDecisions(part: Partition, id: string, query: { limit?: number; cursor?: string }): Promise<Page<DecisionView>> {
    const db = await readPool(this.deps);
    if (!(await findApproval(db, part, id))) throw notFound();
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('approval_decisions', query.cursor);
    const where = new Filters([id]).raw('id > $?', after?.id);
    const { rows } = await db.query<DecisionRow>(
      `select ${decisionColumns} from approval_decisions where approval_id = $1${where.sql()} order by id limit ${where.push(limit + 1)}`,
      where.params,
    );
    return pageOf(rows, limit, 'approval_decisions', decisionView);
  }

  async decide(
    part: Partition,
    id: string,
    body: { approver_id: string; decision: 'approve' | 'reject'; comment?: string | null },
  ): Promise<DecisionView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await findApproval(tx, part, id, true);
      if (!before) throw notFound();
      if (before.status !== 'pending' || before.current_step === null)
        throw workspaceErrors.conflict(`The approval is ${before.status}; it takes no more decisions.`);
      const step = before.current_step;
      if (before.approver_ids[step - 1] !== body.approver_id)
        throw workspaceErrors.notTheActor(`Only the approver of step ${step} may decide it now.`);
      const { rows: inserted } = await tx.query<DecisionRow>(
        `insert into approval_decisions (id, approval_id, step, approver_id, decision, comment, created_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning ${decisionColumns}`,
        [newId(), id, step, body.approver_id, body.decision, body.comment ?? null, now],
      );
      const last = step === before.approver_ids.length;
      const status = body.decision === 'reject' ? 'rejected' : last ? 'approved' : 'pending';
      const nextStep = status === 'pending' ? step + 1 : null;
      const { rows } = await tx.query<ApprovalRow>(
        `update approvals set status = $2, current_step = $3, completed_at = $4, updated_at = $5 where id = $1 returning ${approvalColumns}`,
        [id, status, nextStep, status === 'pending' ? null : now, now],
      );
      const view = approvalView(rows[0]!, (await decisionsOf(tx, [id])).get(id)!);
      if (body.decision === 'approve') sink.emit('approval.step_completed', view, { current_step: { from: step, to: nextStep } });
      if (status !== 'pending')
        sink.emit(status === 'approved' ? 'approval.approved' : 'approval.rejected', view, { status: { from: 'pending', to: status } });
      return decisionView(inserted[0]!);
    });
  }
}
