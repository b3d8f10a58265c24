import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { LabelService } from './service.js';

export function labelHandlers(
  labels: LabelService,
): ChatFeatureHandlers<'listLabels' | 'createLabel' | 'updateLabel' | 'deleteLabel' | 'setRoomLabels'> {
  return {
    async listLabels(_input, ctx) {
      return okList(ctx, await labels.list(callerOf(ctx)));
    },
    async createLabel({ body }, ctx) {
      return ok(ctx, await labels.create(callerOf(ctx), body));
    },
    async updateLabel({ params, body }, ctx) {
      return ok(ctx, await labels.update(callerOf(ctx), params.labelId, body));
    },
    async deleteLabel({ params }, ctx) {
      return ok(ctx, await labels.delete(callerOf(ctx), params.labelId));
    },
    async setRoomLabels({ params, body }, ctx) {
      return ok(ctx, await labels.setRoomLabels(callerOf(ctx), params.roomId, body.labelIds));
    },
  };
}
