// The statements of approvals: one partition's requests with the view's columns, their decisions, and the writes of
// requesting, cancelling and deciding.
import { sql } from 'kysely';
import type { Partition } from '../../core/crm/queries.js';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Position } from '../base/paging.js';
import { workspaceDb } from '../base/tables.js';
import { approvalColumns, decisionColumns, type ApprovalRow, type DecisionRow } from './views.js';

/** The decisions of the given approvals (not empty), by step. */
export function decisionRows(db: Runner, approvalIds: string[]): Promise<DecisionRow[]> {
  return rows(
    db,
    workspaceDb
      .selectFrom('approval_decisions')
      .select(decisionColumns)
      .where(sql<boolean>`approval_id = any(${approvalIds}::uuid[])`)
      .orderBy('step'),
  );
}

/** The partition's approvals with the view's columns. */
const approvalsOf = (part: Partition) =>
  workspaceDb
    .selectFrom('approvals')
    .select(approvalColumns)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** The approval, its row locked for the transaction when `lock`. */
export function approvalById(db: Runner, part: Partition, id: string, lock = false): Promise<ApprovalRow | undefined> {
  return firstRow(
    db,
    approvalsOf(part)
      .where('id', '=', id)
      .$if(lock, (q) => q.forUpdate()),
  );
}

export interface ApprovalFilter {
  status?: string;
  requestedBy?: string;
  /** Pending approvals whose current step this member decides. */
  approverId?: string;
}

/** A page of the partition's approvals matching the filter after a position, newest first. */
export function approvalPage(
  db: Runner,
  part: Partition,
  filter: ApprovalFilter,
  after: Position | undefined,
  limit: number,
): Promise<ApprovalRow[]> {
  return rows(
    db,
    approvalsOf(part)
      .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
      .$if(filter.requestedBy !== undefined, (q) => q.where('requested_by', '=', filter.requestedBy!))
      .$if(filter.approverId !== undefined, (q) =>
        q.where('status', '=', 'pending').where(sql<boolean>`approver_ids[current_step] = ${filter.approverId}::uuid`),
      )
      .$if(after !== undefined && after !== null, (q) => q.where('id', '<', after!.id))
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

/** A page of one approval's decisions after a position, oldest first. */
export function decisionPage(db: Runner, approvalId: string, after: Position | undefined, limit: number): Promise<DecisionRow[]> {
  return rows(
    db,
    workspaceDb
      .selectFrom('approval_decisions')
      .select(decisionColumns)
      .where('approval_id', '=', approvalId)
      .$if(after !== undefined && after !== null, (q) => q.where('id', '>', after!.id))
      .orderBy('id')
      .limit(limit),
  );
}

export interface NewApproval {
  id: string;
  title: string;
  description: string | null;
  requestedBy: string;
  approverIds: string[];
  at: Date;
}

export async function insertApproval(db: Runner, part: Partition, approval: NewApproval): Promise<ApprovalRow> {
  const created = await firstRow(
    db,
    workspaceDb
      .insertInto('approvals')
      .values({
        id: approval.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        title: approval.title,
        description: approval.description,
        requested_by: approval.requestedBy,
        approver_ids: sql<string[]>`${approval.approverIds}::uuid[]`,
        status: 'pending',
        current_step: 1,
        created_at: approval.at,
        updated_at: approval.at,
      })
      .returning(approvalColumns),
  );
  return created!;
}

/** Sets the approval's status and step; completed_at is set when it leaves pending. */
export async function setApprovalProgress(
  db: Runner,
  id: string,
  progress: { status: string; currentStep: number | null },
  at: Date,
): Promise<ApprovalRow> {
  const updated = await firstRow(
    db,
    workspaceDb
      .updateTable('approvals')
      .set({
        status: progress.status,
        current_step: progress.currentStep,
        completed_at: progress.status === 'pending' ? null : at,
        updated_at: at,
      })
      .where('id', '=', id)
      .returning(approvalColumns),
  );
  return updated!;
}

export interface NewDecision {
  id: string;
  approvalId: string;
  step: number;
  approverId: string;
  decision: string;
  comment: string | null;
  at: Date;
}

export async function insertDecision(db: Runner, decision: NewDecision): Promise<DecisionRow> {
  const inserted = await firstRow(
    db,
    workspaceDb
      .insertInto('approval_decisions')
      .values({
        id: decision.id,
        approval_id: decision.approvalId,
        step: decision.step,
        approver_id: decision.approverId,
        decision: decision.decision,
        comment: decision.comment,
        created_at: decision.at,
      })
      .returning(decisionColumns),
  );
  return inserted!;
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  decisionRows: (db) => decisionRows(db, [example.id, example.otherId]),
  approvalById: (db) => approvalById(db, part, example.otherId, true),
  approvalPage: (db) =>
    approvalPage(db, part, { status: 'pending', requestedBy: example.id, approverId: example.otherId }, { id: example.otherId }, 51),
  decisionPage: (db) => decisionPage(db, example.otherId, { id: example.id }, 51),
  insertApproval: (db) =>
    insertApproval(db, part, {
      id: example.otherId,
      title: example.text,
      description: null,
      requestedBy: example.id,
      approverIds: [example.id, example.otherId],
      at: example.at,
    }),
  setApprovalProgress: (db) => setApprovalProgress(db, example.otherId, { status: 'pending', currentStep: 2 }, example.at),
  insertDecision: (db) =>
    insertDecision(db, {
      id: example.id,
      approvalId: example.otherId,
      step: 1,
      approverId: example.id,
      decision: 'approve',
      comment: null,
      at: example.at,
    }),
};
