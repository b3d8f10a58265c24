import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { ContactService } from './service.js';

export function contactHandlers(
  contacts: ContactService,
): ChatFeatureHandlers<
  | 'listContactRequests'
  | 'createContactRequest'
  | 'acceptContactRequest'
  | 'declineContactRequest'
  | 'cancelContactRequest'
  | 'removeContact'
> {
  return {
    async listContactRequests({ query }, ctx) {
      const page = await contacts.list(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async createContactRequest({ body }, ctx) {
      return ok(ctx, await contacts.invite(callerOf(ctx), body.accountId));
    },
    async acceptContactRequest({ params }, ctx) {
      return ok(ctx, await contacts.accept(callerOf(ctx), params.requestId));
    },
    async declineContactRequest({ params }, ctx) {
      return ok(ctx, await contacts.decline(callerOf(ctx), params.requestId));
    },
    async cancelContactRequest({ params }, ctx) {
      return ok(ctx, await contacts.cancel(callerOf(ctx), params.requestId));
    },
    async removeContact({ params }, ctx) {
      return ok(ctx, await contacts.remove(callerOf(ctx), params.requestId));
    },
  };
}
