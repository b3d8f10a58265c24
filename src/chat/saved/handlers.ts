import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { SavedService } from './service.js';

export function savedHandlers(
  saved: SavedService,
): ChatFeatureHandlers<'listSavedMessages' | 'saveMessage' | 'updateSavedMessage' | 'unsaveMessage'> {
  return {
    async listSavedMessages({ query }, ctx) {
      const page = await saved.list(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async saveMessage({ body }, ctx) {
      return ok(ctx, await saved.save(callerOf(ctx), body));
    },
    async updateSavedMessage({ params, body }, ctx) {
      return ok(ctx, await saved.updateNote(callerOf(ctx), params.savedId, body));
    },
    async unsaveMessage({ params }, ctx) {
      return ok(ctx, await saved.unsave(callerOf(ctx), params.savedId));
    },
  };
}
