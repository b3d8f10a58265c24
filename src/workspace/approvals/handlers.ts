// The approval families (/approvals, /approvals/{id}/decisions): typed in, one service call, the record out.
import { partitionOf } from '../crm/partition.js';
import type { WorkspaceDeps } from '../base/deps.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { ApprovalService, approvalsPath } from './approvals.js';

export type ApprovalOperationId =
  'listApprovals' | 'createApproval' | 'getApproval' | 'cancelApproval' | 'listApprovalDecisions' | 'createApprovalDecision';

export function approvalHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<ApprovalOperationId> {
  const approvals = new ApprovalService(deps);
  return {
    async listApprovals({ query }, ctx) {
      return { status: 200, body: await approvals.list(partitionOf(ctx), query ?? {}) };
    },
    async createApproval({ body }, ctx) {
      const approval = await approvals.create(partitionOf(ctx), body);
      return { status: 201, body: approval, location: `${approvalsPath}/${approval.id}` };
    },
    async getApproval({ params }, ctx) {
      return { status: 200, body: await approvals.get(partitionOf(ctx), params.id) };
    },
    async cancelApproval({ params, body }, ctx) {
      return { status: 200, body: await approvals.cancel(partitionOf(ctx), params.id, body.requested_by) };
    },
    async listApprovalDecisions({ params, query }, ctx) {
      return { status: 200, body: await approvals.listDecisions(partitionOf(ctx), params.id, query ?? {}) };
    },
    async createApprovalDecision({ params, body }, ctx) {
      const decision = await approvals.decide(partitionOf(ctx), params.id, body);
      return { status: 201, body: decision, location: `${approvalsPath}/${params.id}/decisions` };
    },
  };
}
