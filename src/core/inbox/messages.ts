// Messages of a conversation: inbound ones (received from the customer, message.received) and outbound ones (sent
// to the customer, message.sent). An inbound message reopens a closed conversation; an outbound one needs it open.
// The first outbound message of a conversation stamps its first_response_at.
import type { Partition } from '../crm/records.js';
import { Filters } from '../../platform/db/filters.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { readPool } from '../../platform/db/read-router.js';
import { newId } from '../../platform/ids.js';
import { withEvents, type EventDeps } from '../events/outbox.js';
import { lockConversation, setConversationStatus, type RowPage } from './conversations.js';
import type { InboxErrorFactory } from './errors.js';
import { checkMembers } from './references.js';
import { messageColumns, messageView, type MessageRow } from './views.js';

export interface NewMessage {
  direction: 'inbound' | 'outbound';
  text: string;
  author_id?: string | null;
}

export interface MessageFilters {
  conversation_id?: string;
  direction?: string;
}

export class MessageStore {
  constructor(
    private readonly deps: EventDeps,
    private readonly errors: InboxErrorFactory,
  ) {}

  /** Newest first, filtered; limit + 1 rows at most. */
  async list(part: Partition, filters: MessageFilters, page: RowPage): Promise<MessageRow[]> {
    const db = await readPool(this.deps);
    const where = new Filters([part.workspaceId, part.environment])
      .eq('conversation_id', filters.conversation_id)
      .eq('direction', filters.direction)
      .raw('id < $?', page.beforeId);
    const { rows } = await db.query<MessageRow>(
      `select ${messageColumns} from inbox_messages where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(page.limit + 1)}`,
      where.params,
    );
    return rows;
  }

  async get(part: Partition, id: string): Promise<MessageRow> {
    const db = await readPool(this.deps);
    const { rows } = await db.query<MessageRow>(
      `select ${messageColumns} from inbox_messages where id = $1 and workspace_id = $2 and environment = $3`,
      [id, part.workspaceId, part.environment],
    );
    if (!rows[0]) throw this.errors.messageNotFound();
    return rows[0];
  }

  /**
   * Adds a message to a conversation in one transaction (the caller's, when db is one). missingConversation is the
   * error for a conversation id that names none: a body field on one API, the path on the other.
   */
  async create(
    db: Queryable,
    part: Partition,
    conversationId: string,
    body: NewMessage,
    missingConversation: () => Error,
  ): Promise<MessageRow> {
    if (body.direction === 'inbound' && body.author_id)
      throw this.errors.invalid('body.author_id', 'is for outbound messages; an inbound message comes from the customer');
    return withEvents(this.deps, db, part, async (tx, sink, now) => {
      const conversation = await lockConversation(tx, part, conversationId);
      if (!conversation) throw missingConversation();
      await checkMembers(tx, this.errors, part.workspaceId, [{ field: 'body.author_id', id: body.author_id }]);
      if (conversation.status === 'closed') {
        if (body.direction === 'outbound') throw this.errors.conversationClosed();
        await setConversationStatus(tx, sink, conversation, 'open', now);
      }
      const { rows } = await tx.query<MessageRow>(
        `insert into inbox_messages (id, workspace_id, environment, conversation_id, direction, text, author_id, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${messageColumns}`,
        [newId(), part.workspaceId, part.environment, conversation.id, body.direction, body.text, body.author_id ?? null, now],
      );
      await tx.query(
        `update inbox_conversations set last_message_at = $2, updated_at = $2,
           first_response_at = case when $3::boolean and first_response_at is null then $2 else first_response_at end
         where id = $1`,
        [conversation.id, now, body.direction === 'outbound'],
      );
      const message = rows[0]!;
      sink.emit(body.direction === 'inbound' ? 'message.received' : 'message.sent', messageView(message));
      return message;
    });
  }
}
