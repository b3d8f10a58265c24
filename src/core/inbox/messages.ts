// Messages of a conversation: inbound ones (received from the customer, message.received) and outbound ones (sent
// to the customer, message.sent). An inbound message reopens a closed conversation; an outbound one needs it open.
// The first outbound message of a conversation stamps its first_response_at.
import type { Partition } from '../crm/records.js';
import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/queryable.js';
import { readPool } from '../../platform/db/read-router.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { withEvents, type EventDeps } from '../events/outbox.js';
import { lockConversation, setConversationStatus, type RowPage } from './conversations.js';
import type { InboxErrorFactory } from './errors.js';
import { checkMembers } from './references.js';
import { messageColumns, messageView, type MessageRow } from './views.js';
import { coreDb } from '../tables.js';

export interface NewMessage {
  direction: 'inbound' | 'outbound';
  text: string;
  author_id?: string | null;
}

export interface MessageFilters {
  conversation_id?: string;
  direction?: string;
}

/** The partition's messages with the view's columns: every read of a message starts here. */
const messagesOf = (part: Partition) =>
  coreDb
    .selectFrom('inbox_messages')
    .select(messageColumns)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

export class MessageStore {
  constructor(
    private readonly deps: EventDeps,
    private readonly errors: InboxErrorFactory,
  ) {}

  /** Newest first, filtered; limit + 1 rows at most. */
  async list(part: Partition, filters: MessageFilters, page: RowPage): Promise<MessageRow[]> {
    const db = await readPool(this.deps);
    return rows(
      db,
      messagesOf(part)
        .$if(filters.conversation_id !== undefined, (qb) => qb.where('conversation_id', '=', filters.conversation_id!))
        .$if(filters.direction !== undefined, (qb) => qb.where('direction', '=', filters.direction!))
        .$if(page.beforeId !== undefined, (qb) => qb.where('id', '<', page.beforeId!))
        .orderBy('id', 'desc')
        .limit(page.limit + 1),
    );
  }

  async get(part: Partition, id: string): Promise<MessageRow> {
    const db = await readPool(this.deps);
    const row = await firstRow(db, messagesOf(part).where('id', '=', id));
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
      const message = (await firstRow(
        tx,
        coreDb
          .insertInto('inbox_messages')
          .values({
            id: newId(),
            workspace_id: part.workspaceId,
            environment: part.environment,
            conversation_id: conversation.id,
            direction: body.direction,
            text: body.text,
            author_id: body.author_id ?? null,
            created_at: now,
          })
          .returning(messageColumns),
      ))!;
      const outbound = body.direction === 'outbound';
      await affected(
        tx,
        coreDb
          .updateTable('inbox_conversations')
          .set({
            last_message_at: now,
            updated_at: now,
            first_response_at: sql<Date | null>`case when ${outbound}::boolean and first_response_at is null then ${now}::timestamptz else first_response_at end`,
          })
          .where('id', '=', conversation.id),
      );
      sink.emit(body.direction === 'inbound' ? 'message.received' : 'message.sent', messageView(message));
      return message;
    });
  }
}
