// The statements of conversations and their messages, and of the members an inbox write may name. Every read is
// bounded by the partition (workspace and environment).
import { sql } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Partition } from '../crm/queries.js';
import { coreDb } from '../tables.js';
import { conversationColumns, messageColumns, type ConversationRow, type MessageRow } from './views.js';

/** A page request: up to limit + 1 rows older (smaller id) than beforeId; the extra row says that more follow. */
export interface RowPage {
  limit: number;
  beforeId?: string;
}

export interface ConversationFilters {
  status?: string;
  channel?: string;
  assignee_id?: string;
  contact_id?: string;
}

export interface MessageFilters {
  conversation_id?: string;
  direction?: string;
}

/** The partition's conversations with the view's columns: every read of a conversation starts here. */
const conversationsOf = (part: Partition) =>
  coreDb
    .selectFrom('inbox_conversations')
    .select(conversationColumns)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** The partition's messages with the view's columns: every read of a message starts here. */
const messagesOf = (part: Partition) =>
  coreDb
    .selectFrom('inbox_messages')
    .select(messageColumns)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** Which of the ids are members of the workspace. */
export async function workspaceMembersAmong(db: Runner, workspaceId: string, ids: string[]): Promise<Set<string>> {
  const present = await rows(
    db,
    coreDb
      .selectFrom('workspace_members')
      .select('account_id')
      .where('workspace_id', '=', workspaceId)
      .where(sql<boolean>`account_id = any(${ids}::uuid[])`),
  );
  return new Set(present.map((r) => r.account_id));
}

/** Newest first, filtered; limit + 1 rows at most. */
export async function conversationsPage(
  db: Runner,
  part: Partition,
  filters: ConversationFilters,
  page: RowPage,
): Promise<ConversationRow[]> {
  return rows(
    db,
    conversationsOf(part)
      .$if(filters.status !== undefined, (qb) => qb.where('status', '=', filters.status!))
      .$if(filters.channel !== undefined, (qb) => qb.where('channel', '=', filters.channel!))
      .$if(filters.assignee_id !== undefined, (qb) => qb.where('assignee_id', '=', filters.assignee_id!))
      .$if(filters.contact_id !== undefined, (qb) => qb.where('contact_id', '=', filters.contact_id!))
      .$if(page.beforeId !== undefined, (qb) => qb.where('id', '<', page.beforeId!))
      .orderBy('id', 'desc')
      .limit(page.limit + 1),
  );
}

/** The conversation, locked for the rest of the transaction when `forUpdate`; undefined when it is not in the partition. */
export async function conversationById(db: Runner, part: Partition, id: string, forUpdate = false): Promise<ConversationRow | undefined> {
  return firstRow(
    db,
    conversationsOf(part)
      .where('id', '=', id)
      .$if(forUpdate, (qb) => qb.forUpdate()),
  );
}

export async function insertConversation(
  db: Runner,
  part: Partition,
  conversation: { id: string; channel: string; subject: string | null; contact_id: string | null; customer_handle: string | null },
  now: Date,
): Promise<ConversationRow | undefined> {
  return firstRow(
    db,
    coreDb
      .insertInto('inbox_conversations')
      .values({
        id: conversation.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        channel: conversation.channel,
        subject: conversation.subject,
        contact_id: conversation.contact_id,
        customer_handle: conversation.customer_handle,
        status: 'open',
        created_at: now,
        updated_at: now,
      })
      .returning(conversationColumns),
  );
}

/** Sets the conversation's status (and closed_at with it); the row after. */
export async function updateConversationStatus(
  db: Runner,
  id: string,
  to: 'open' | 'closed',
  now: Date,
): Promise<ConversationRow | undefined> {
  return firstRow(
    db,
    coreDb
      .updateTable('inbox_conversations')
      .set({ status: to, closed_at: to === 'closed' ? now : null, updated_at: now })
      .where('id', '=', id)
      .returning(conversationColumns),
  );
}

export async function updateConversationAssignee(
  db: Runner,
  id: string,
  assigneeId: string | null,
  now: Date,
): Promise<ConversationRow | undefined> {
  return firstRow(
    db,
    coreDb
      .updateTable('inbox_conversations')
      .set({ assignee_id: assigneeId, updated_at: now })
      .where('id', '=', id)
      .returning(conversationColumns),
  );
}

/** A message's time on its conversation; the first outbound one stamps first_response_at. */
export async function touchConversation(db: Runner, id: string, outbound: boolean, now: Date): Promise<number> {
  return affected(
    db,
    coreDb
      .updateTable('inbox_conversations')
      .set({
        last_message_at: now,
        updated_at: now,
        first_response_at: sql<Date | null>`case when ${outbound}::boolean and first_response_at is null then ${now}::timestamptz else first_response_at end`,
      })
      .where('id', '=', id),
  );
}

/** Newest first, filtered; limit + 1 rows at most. */
export async function messagesPage(db: Runner, part: Partition, filters: MessageFilters, page: RowPage): Promise<MessageRow[]> {
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

export async function messageById(db: Runner, part: Partition, id: string): Promise<MessageRow | undefined> {
  return firstRow(db, messagesOf(part).where('id', '=', id));
}

export async function insertMessage(
  db: Runner,
  part: Partition,
  message: { id: string; conversation_id: string; direction: string; text: string; author_id: string | null },
  now: Date,
): Promise<MessageRow | undefined> {
  return firstRow(
    db,
    coreDb
      .insertInto('inbox_messages')
      .values({
        id: message.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        conversation_id: message.conversation_id,
        direction: message.direction,
        text: message.text,
        author_id: message.author_id,
        created_at: now,
      })
      .returning(messageColumns),
  );
}

const part: Partition = { workspaceId: example.id, environment: 'live' };
const page: RowPage = { limit: 50, beforeId: example.otherId };

export const examples: QueryExamples = {
  workspaceMembersAmong: (db) => workspaceMembersAmong(db, example.id, [example.otherId]),
  conversationsPage: (db) =>
    conversationsPage(db, part, { status: 'open', channel: 'email', assignee_id: example.otherId, contact_id: example.otherId }, page),
  conversationById: (db) => conversationById(db, part, example.otherId, true),
  insertConversation: (db) =>
    insertConversation(
      db,
      part,
      { id: example.otherId, channel: 'email', subject: example.text, contact_id: null, customer_handle: example.text },
      example.at,
    ),
  updateConversationStatus: (db) => updateConversationStatus(db, example.otherId, 'closed', example.at),
  updateConversationAssignee: (db) => updateConversationAssignee(db, example.otherId, example.id, example.at),
  touchConversation: (db) => touchConversation(db, example.otherId, true, example.at),
  messagesPage: (db) => messagesPage(db, part, { conversation_id: example.otherId, direction: 'inbound' }, page),
  messageById: (db) => messageById(db, part, example.otherId),
  insertMessage: (db) =>
    insertMessage(
      db,
      part,
      { id: example.otherId, conversation_id: example.id, direction: 'outbound', text: example.text, author_id: example.id },
      example.at,
    ),
};
