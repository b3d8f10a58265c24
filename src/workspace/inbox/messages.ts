// Messages of a conversation: inbound ones (received from the customer, message.received) and outbound ones (sent
// to the customer, message.sent). An inbound message reopens a closed conversation; an outbound one needs it open.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/records.js';
import { newId } from '../../platform/ids.js';
import { checkMembers } from '../common/checks.js';
import { defaultLimit, Filters, pageOf, readCursor } from '../common/paging.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';
import { lockConversation, setConversationStatus } from './conversations.js';
import { messageColumns, messageView, type MessageRow, type MessageView } from './views.js';

export const messagesPath = '/api/v1/messages';

export interface NewMessage {
  conversation_id: string;
  direction?: 'inbound' | 'outbound';
  text: string;
  author_id?: string | null;
}

export class MessageService {
  constructor(private readonly deps: EventDeps) {}

  async list(part: Partition, query: { limit?: number; cursor?: string; conversation_id?: string; direction?: string }): Promise<Page<MessageView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('messages', query.cursor);
    const where = new Filters([part.workspaceId, part.environment]).eq('conversation_id', query.conversation_id).eq('direction', query.direction).raw('id < $?', after?.id);
    const { rows } = await db.query<MessageRow>(
      `select ${messageColumns} from inbox_messages where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(limit + 1)}`,
      where.params,
    );
    return pageOf(rows, limit, 'messages', messageView);
  }

  async get(part: Partition, id: string): Promise<MessageView> {
    const db = await readPool(this.deps);
    const { rows } = await db.query<MessageRow>(`select ${messageColumns} from inbox_messages where id = $1 and workspace_id = $2 and environment = $3`, [
      id,
      part.workspaceId,
      part.environment,
    ]);
    if (!rows[0]) throw workspaceErrors.notFound('The message');
    return messageView(rows[0]);
  }

  async create(part: Partition, body: NewMessage): Promise<MessageView> {
    const direction = body.direction ?? 'outbound';
    if (direction === 'inbound' && body.author_id) throw workspaceErrors.invalid('body.author_id', 'is for outbound messages; an inbound message comes from the customer');
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const conversation = await lockConversation(tx, part, body.conversation_id);
      if (!conversation) throw workspaceErrors.invalid('body.conversation_id', 'names no conversation of this workspace');
      await checkMembers(tx, part.workspaceId, [{ field: 'body.author_id', id: body.author_id }]);
      if (conversation.status === 'closed') {
        if (direction === 'outbound') throw workspaceErrors.conflict('The conversation is closed; reopen it before sending.');
        await setConversationStatus(tx, sink, conversation, 'open', now);
      }
      const { rows } = await tx.query<MessageRow>(
        `insert into inbox_messages (id, workspace_id, environment, conversation_id, direction, text, author_id, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${messageColumns}`,
        [newId(), part.workspaceId, part.environment, conversation.id, direction, body.text, body.author_id ?? null, now],
      );
      await tx.query('update inbox_conversations set last_message_at = $2, updated_at = $2 where id = $1', [conversation.id, now]);
      const view = messageView(rows[0]!);
      sink.emit(direction === 'inbound' ? 'message.received' : 'message.sent', view);
      return view;
    });
  }
}
