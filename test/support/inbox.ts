// Inbox fixtures written straight to the database: conversations (and their messages) of a workspace environment as
// a channel would open them, so partner tests need no other interface to have conversations to read and report on.
import type pg from 'pg';
import { newId } from '../../src/platform/ids.js';

export interface ConversationFixture {
  workspaceId: string;
  environment?: 'live' | 'test' | 'dev';
  channel?: string;
  subject?: string | null;
  status?: 'open' | 'closed';
  createdAt?: Date;
  firstResponseAt?: Date | null;
  closedAt?: Date | null;
  /** Inbound message texts to add, received at createdAt. */
  inbound?: string[];
}

/** Inserts a conversation (and its inbound messages) and returns its id. */
export async function insertConversation(db: pg.Pool, f: ConversationFixture): Promise<string> {
  const id = newId();
  const at = f.createdAt ?? new Date();
  const status = f.status ?? (f.closedAt ? 'closed' : 'open');
  await db.query(
    `insert into inbox_conversations (id, workspace_id, environment, channel, subject, customer_handle, status, first_response_at, closed_at, last_message_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 'customer@example.com', $6, $7, $8, $9, $10, $10)`,
    [
      id,
      f.workspaceId,
      f.environment ?? 'live',
      f.channel ?? 'email',
      f.subject ?? 'Order question',
      status,
      f.firstResponseAt ?? null,
      f.closedAt ?? null,
      f.inbound?.length ? at : null,
      at,
    ],
  );
  for (const text of f.inbound ?? []) {
    await db.query(
      `insert into inbox_messages (id, workspace_id, environment, conversation_id, direction, text, created_at) values ($1, $2, $3, $4, 'inbound', $5, $6)`,
      [newId(), f.workspaceId, f.environment ?? 'live', id, text, at],
    );
  }
  return id;
}
