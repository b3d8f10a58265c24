// Messages of a conversation: inbound ones (received from the customer, message.received) and outbound ones (sent
// to the customer, message.sent). An inbound message reopens a closed conversation; an outbound one needs it open.
// The first outbound message of a conversation stamps its first_response_at.
import type { Partition } from '../crm/queries.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { readPool } from '../../platform/db/read-router.js';
import { newId } from '../../platform/ids.js';
import { withEvents, type EventDeps } from '../events/outbox.js';
import { lockConversation, setConversationStatus } from './conversations.js';
import type { InboxErrorFactory } from './errors.js';
import { insertMessage, messageById, messagesPage, touchConversation, type MessageFilters, type RowPage } from './queries.js';
import { checkMembers } from './references.js';
import { messageView, type MessageRow } from './views.js';

export type { MessageFilters } from './queries.js';

export interface NewMessage {
  direction: 'inbound' | 'outbound';
  text: string;
  author_id?: string | null;
}

export class MessageStore {
  constructor(
    private readonly deps: EventDeps,
    private readonly errors: InboxErrorFactory,
  ) {}

  /** Newest first, filtered; limit + 1 rows at most. */
  async list(part: Partition, filters: MessageFilters, page: RowPage): Promise<MessageRow[]> {
    const db = await readPool(this.deps);
    return messagesPage(db, part, filters, page);
  }

  async get(part: Partition, id: string): Promise<MessageRow> {
    const db = await readPool(this.deps);
    const row = await messageById(db, part, id);
    if (!row) throw this.errors.messageNotFound();
    return row;
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
      const message = (await insertMessage(
        tx,
        part,
        {
          id: newId(),
          conversation_id: conversation.id,
          direction: body.direction,
          text: body.text,
          author_id: body.author_id ?? null,
        },
        now,
      ))!;
      await touchConversation(tx, conversation.id, body.direction === 'outbound', now);
      sink.emit(body.direction === 'inbound' ? 'message.received' : 'message.sent', messageView(message));
      return message;
    });
  }
}
