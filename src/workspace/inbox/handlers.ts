// The inbox families (/conversations, /messages): typed in, one service call, the record out.
import { partitionOf } from '../crm/partition.js';
import type { WorkspaceDeps } from '../deps.js';
import type { WorkspaceFeatureHandlers } from '../handler-types.js';
import { ConversationService, conversationsPath } from './conversations.js';
import { MessageService, messagesPath } from './messages.js';

export type InboxOperationId =
  | 'listConversations' | 'createConversation' | 'getConversation' | 'assignConversation' | 'closeConversation' | 'reopenConversation'
  | 'listMessages' | 'createMessage' | 'getMessage';

export function inboxHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<InboxOperationId> {
  const conversations = new ConversationService(deps);
  const messages = new MessageService(deps);
  return {
    async listConversations({ query }, ctx) {
      return { status: 200, body: await conversations.list(partitionOf(ctx), query ?? {}) };
    },
    async createConversation({ body }, ctx) {
      const conversation = await conversations.create(partitionOf(ctx), body);
      return { status: 201, body: conversation, location: `${conversationsPath}/${conversation.id}` };
    },
    async getConversation({ params }, ctx) {
      return { status: 200, body: await conversations.get(partitionOf(ctx), params.id) };
    },
    async assignConversation({ params, body }, ctx) {
      return { status: 200, body: await conversations.assign(partitionOf(ctx), params.id, body.assignee_id) };
    },
    async closeConversation({ params }, ctx) {
      return { status: 200, body: await conversations.setStatus(partitionOf(ctx), params.id, 'closed') };
    },
    async reopenConversation({ params }, ctx) {
      return { status: 200, body: await conversations.setStatus(partitionOf(ctx), params.id, 'open') };
    },
    async listMessages({ query }, ctx) {
      return { status: 200, body: await messages.list(partitionOf(ctx), query ?? {}) };
    },
    async createMessage({ body }, ctx) {
      const message = await messages.create(partitionOf(ctx), body);
      return { status: 201, body: message, location: `${messagesPath}/${message.id}` };
    },
    async getMessage({ params }, ctx) {
      return { status: 200, body: await messages.get(partitionOf(ctx), params.id) };
    },
  };
}
