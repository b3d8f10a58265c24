import { callerOf } from '../base/context.js';
import { okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { SearchService } from './service.js';

export function searchHandlers(search: SearchService): ChatFeatureHandlers<'searchMessages'> {
  return {
    async searchMessages({ query }, ctx) {
      const page = await search.messages(callerOf(ctx), query);
      return okList(ctx, page.items, page);
    },
  };
}
