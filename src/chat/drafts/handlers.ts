import { callerOf } from '../base/context.js';
import { ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { DraftService } from './service.js';

export function draftHandlers(drafts: DraftService): ChatFeatureHandlers<'getDraft' | 'saveDraft' | 'deleteDraft'> {
  return {
    async getDraft({ params }, ctx) {
      return ok(ctx, await drafts.get(callerOf(ctx), params.roomId));
    },
    async saveDraft({ params, body }, ctx) {
      return ok(ctx, await drafts.save(callerOf(ctx), params.roomId, body.text));
    },
    async deleteDraft({ params }, ctx) {
      return ok(ctx, await drafts.delete(callerOf(ctx), params.roomId));
    },
  };
}
