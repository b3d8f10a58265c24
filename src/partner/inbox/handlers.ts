// /api/v1/inbox/conversations and /api/v1/inbox/messages: the shared inbox store in convention A. Writes run on
// ctx.db, the Idempotency-Key record's transaction, so their events (conversation.assigned, conversation.closed,
// conversation.reopened, message.sent) commit with the record or not at all.
import { ConversationStore } from '../../core/inbox/conversations.js';
import { MessageStore } from '../../core/inbox/messages.js';
import type { PartnerDeps } from '../base/deps.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import { partitionOf } from '../base/partition.js';
import { partnerInboxErrors } from './errors.js';
import { afterIdOf, defaultLimit, idPage, listIn } from '../base/paging.js';
import { conversationObject, messageObject } from './views.js';

export const inboxBasePath = '/api/v1/inbox';

export type InboxOperationId =
  | 'listInboxConversations'
  | 'getInboxConversation'
  | 'updateInboxConversation'
  | 'listInboxConversationMessages'
  | 'sendInboxMessage'
  | 'listInboxMessages'
  | 'getInboxMessage';

export function inboxHandlers(deps: PartnerDeps): PartnerFeatureHandlers<InboxOperationId> {
  const conversations = new ConversationStore(deps, partnerInboxErrors);
  const messages = new MessageStore(deps, partnerInboxErrors);
  return {
    async listInboxConversations({ query }, ctx) {
      const { limit = defaultLimit, cursor, ...filters } = query ?? {};
      const part = partitionOf(ctx);
      const list = listIn(part, 'inbox.conversations', filters);
      const rows = await conversations.list(part, filters, { limit, beforeId: afterIdOf(list, cursor) });
      return { status: 200, body: idPage(list, rows, limit, conversationObject) };
    },
    async getInboxConversation({ params }, ctx) {
      return { status: 200, body: conversationObject(await conversations.get(partitionOf(ctx), params.id)) };
    },
    async updateInboxConversation({ params, body }, ctx) {
      return { status: 200, body: conversationObject(await conversations.change(ctx.db, partitionOf(ctx), params.id, body)) };
    },
    async listInboxConversationMessages({ params, query }, ctx) {
      const part = partitionOf(ctx);
      const { limit = defaultLimit, cursor, direction } = query ?? {};
      const list = listIn(part, 'inbox.conversation-messages', { conversation_id: params.id, direction });
      const beforeId = afterIdOf(list, cursor);
      // 404 for a conversation that is not the key's, rather than an empty list.
      await conversations.get(part, params.id);
      const rows = await messages.list(part, { conversation_id: params.id, direction }, { limit, beforeId });
      return { status: 200, body: idPage(list, rows, limit, messageObject) };
    },
    async sendInboxMessage({ params, body }, ctx) {
      const message = messageObject(
        await messages.create(ctx.db, partitionOf(ctx), params.id, { direction: 'outbound', ...body }, () =>
          partnerInboxErrors.conversationNotFound(),
        ),
      );
      return { status: 201, body: message, location: `${inboxBasePath}/messages/${message.id}` };
    },
    async listInboxMessages({ query }, ctx) {
      const { limit = defaultLimit, cursor, ...filters } = query ?? {};
      const part = partitionOf(ctx);
      const list = listIn(part, 'inbox.messages', filters);
      const rows = await messages.list(part, filters, { limit, beforeId: afterIdOf(list, cursor) });
      return { status: 200, body: idPage(list, rows, limit, messageObject) };
    },
    async getInboxMessage({ params }, ctx) {
      return { status: 200, body: messageObject(await messages.get(partitionOf(ctx), params.id)) };
    },
  };
}
