// The inbox families (/conversations, /messages): typed in, one call of the shared inbox store, the record out,
// paged with this API's cursors.
import { ConversationStore } from '../../core/inbox/conversations.js';
import { MessageStore } from '../../core/inbox/messages.js';
import { conversationView, messageView } from '../../core/inbox/views.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { partitionOf } from '../crm/partition.js';
import type { WorkspaceDeps } from '../base/deps.js';
import { workspaceErrors } from '../base/errors.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { workspaceInboxErrors } from './errors.js';

export const conversationsPath = '/api/v1/conversations';
export const messagesPath = '/api/v1/messages';

export type InboxOperationId =
  | 'listConversations'
  | 'createConversation'
  | 'getConversation'
  | 'assignConversation'
  | 'closeConversation'
  | 'reopenConversation'
  | 'listMessages'
  | 'createMessage'
  | 'getMessage';

export function inboxHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<InboxOperationId> {
  const conversations = new ConversationStore(deps, workspaceInboxErrors);
  const messages = new MessageStore(deps, workspaceInboxErrors);
  const conversationMissing = () => workspaceErrors.invalid('body.conversation_id', 'names no conversation of this workspace');
  return {
    async listConversations({ query }, ctx) {
      const { limit = defaultLimit, cursor, ...filters } = query ?? {};
      const part = partitionOf(ctx);
      const list = listIn(part, 'conversations', filters);
      const rows = await conversations.list(part, filters, { limit, beforeId: readCursor(list, cursor)?.id });
      return { status: 200, body: pageOf(rows, limit, list, conversationView) };
    },
    async createConversation({ body }, ctx) {
      const conversation = conversationView(await conversations.create(partitionOf(ctx), body));
      return { status: 201, body: conversation, location: `${conversationsPath}/${conversation.id}` };
    },
    async getConversation({ params }, ctx) {
      return { status: 200, body: conversationView(await conversations.get(partitionOf(ctx), params.id)) };
    },
    async assignConversation({ params, body }, ctx) {
      return {
        status: 200,
        body: conversationView(await conversations.change(deps.sql, partitionOf(ctx), params.id, { assignee_id: body.assignee_id })),
      };
    },
    async closeConversation({ params }, ctx) {
      return {
        status: 200,
        body: conversationView(await conversations.change(deps.sql, partitionOf(ctx), params.id, { status: 'closed' })),
      };
    },
    async reopenConversation({ params }, ctx) {
      return { status: 200, body: conversationView(await conversations.change(deps.sql, partitionOf(ctx), params.id, { status: 'open' })) };
    },
    async listMessages({ query }, ctx) {
      const { limit = defaultLimit, cursor, ...filters } = query ?? {};
      const part = partitionOf(ctx);
      const list = listIn(part, 'messages', filters);
      const rows = await messages.list(part, filters, { limit, beforeId: readCursor(list, cursor)?.id });
      return { status: 200, body: pageOf(rows, limit, list, messageView) };
    },
    async createMessage({ body }, ctx) {
      const { conversation_id, direction = 'outbound', ...rest } = body;
      const message = messageView(
        await messages.create(deps.sql, partitionOf(ctx), conversation_id, { direction, ...rest }, conversationMissing),
      );
      return { status: 201, body: message, location: `${messagesPath}/${message.id}` };
    },
    async getMessage({ params }, ctx) {
      return { status: 200, body: messageView(await messages.get(partitionOf(ctx), params.id)) };
    },
  };
}
