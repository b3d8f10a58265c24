// GET /api/v1/me/events: the caller's event log over REST, the same catch-up a STOMP client gets with resume-after.
import type { SqlPool } from '../../platform/db/sql.js';
import { callerOf } from '../base/context.js';
import { ok } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import { realtimeErrors } from './errors.js';
import { readUserEvents } from './log.js';

export function realtimeHandlers(sql: SqlPool): ChatFeatureHandlers<'listMyEvents'> {
  return {
    async listMyEvents({ query }, ctx) {
      const caller = callerOf(ctx);
      const after = query?.after ?? 0;
      const page = await readUserEvents(sql, caller.accountId, after, query?.limit ?? 100);
      if (page.expired) throw realtimeErrors.eventsExpired(after, page.lastSeq);
      const events = page.events.map((e) => ({ ...e, payload: e.payload as Record<string, unknown> }));
      return ok(ctx, { events, hasMore: page.hasMore, lastSeq: page.lastSeq });
    },
  };
}
