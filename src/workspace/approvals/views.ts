import type { Selectable } from 'kysely';
import type { components } from '../../../generated/types/workspace.js';
import type { WorkspaceTables } from '../base/tables.js';

type Schemas = components['schemas'];
export type ApprovalView = Schemas['Approvals.Approval'];
export type DecisionView = Schemas['Approvals.Decision'];
type StepView = Schemas['Approvals.ApprovalStep'];

export const approvalColumns = [
  'id',
  'title',
  'description',
  'requested_by',
  'approver_ids',
  'status',
  'current_step',
  'completed_at',
  'created_at',
  'updated_at',
] as const;
export type ApprovalRow = Pick<Selectable<WorkspaceTables['approvals']>, (typeof approvalColumns)[number]>;

export const decisionColumns = ['id', 'approval_id', 'step', 'approver_id', 'decision', 'comment', 'created_at'] as const;
export type DecisionRow = Pick<Selectable<WorkspaceTables['approval_decisions']>, (typeof decisionColumns)[number]>;

/** The approval with its steps, each step's state read from its decision (if any) and the request's progress. */
export function approvalView(r: ApprovalRow, decisions: readonly DecisionRow[]): ApprovalView {
  const byStep = new Map(decisions.map((d) => [d.step, d]));
  const steps: StepView[] = (r.approver_ids as string[]).map((approverId, i) => {
    const step = i + 1;
    const decided = byStep.get(step);
    let status: StepView['status'];
    if (decided) status = decided.decision === 'approve' ? 'approved' : 'rejected';
    else if (r.status !== 'pending') status = 'skipped';
    else status = step === r.current_step ? 'pending' : 'waiting';
    return { step, approver_id: approverId, status, decided_at: decided?.created_at.toISOString() ?? null };
  });
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    requested_by: r.requested_by,
    status: r.status as ApprovalView['status'],
    current_step: r.current_step,
    steps,
    completed_at: r.completed_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function decisionView(d: DecisionRow): DecisionView {
  return {
    id: d.id,
    approval_id: d.approval_id,
    step: d.step,
    approver_id: d.approver_id,
    decision: d.decision as DecisionView['decision'],
    comment: d.comment,
    created_at: d.created_at.toISOString(),
  };
}
