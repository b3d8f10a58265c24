import { callerOf } from '../context.js';
import { okList } from '../envelope.js';
import type { ChatFeatureHandlers } from '../handler-types.js';
import type { SearchService } from './service.js';

export function searchHandlers(search: SearchService): ChatFeatureHandlers<'searchMessages'> {
  return {
    async searchMessages({ query }, ctx) {
      const page = await search.messages(callerOf(ctx), query);
      return okList(ctx, page.items, page);
    },
  };
}
