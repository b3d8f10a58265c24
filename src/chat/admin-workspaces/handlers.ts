import { platformAdminOf } from '../base/context.js';
import { ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { WorkspacePlanService } from './service.js';

export function workspacePlanHandlers(plans: WorkspacePlanService): ChatFeatureHandlers<'getWorkspacePlan' | 'setWorkspacePlan'> {
  return {
    async getWorkspacePlan({ params }, ctx) {
      platformAdminOf(ctx);
      return ok(ctx, await plans.get(params.workspaceId));
    },
    async setWorkspacePlan({ params, body }, ctx) {
      platformAdminOf(ctx);
      return ok(ctx, await plans.set(params.workspaceId, body));
    },
  };
}
