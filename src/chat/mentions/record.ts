// The mentions step of the paths that store a message in a transaction of several statements (replies, sends with
// files) and of edits and recalls. The plain send carries the same step inside its one statement (messages/send-sql.ts).
import type { SqlClient } from '../../platform/db/sql.js';
import { mayMention, mentionCandidates } from './parse.js';
import { recordMentionsSql, withdrawMentionsSql } from './sql.js';

export interface MentionEntity {
  type: 'mention';
  offset: number;
  length: number;
  /** The account mentioned; absent for @all and @here. */
  accountId?: string;
  broadcast?: 'all' | 'here';
}

export interface StoredMessage {
  id: string;
  room_id: string;
  sender_id: string;
}

/**
 * Records the mentions of a message just stored with `text`, in the caller's transaction. Returns the entities to
 * put on the row (null when none). Nothing runs when the text holds no '@'.
 */
export async function recordMentions(client: SqlClient, message: StoredMessage, text: string | null): Promise<MentionEntity[] | null> {
  if (text === null || !mayMention(text)) return null;
  return recomputeMentions(client, message, text);
}

/** An edit: the new text's mentions replace the old ones (new ones notify, removed ones are withdrawn). */
export async function recomputeMentions(client: SqlClient, message: StoredMessage, text: string): Promise<MentionEntity[] | null> {
  const { rows } = await client.query<{ entities: MentionEntity[] | null }>(recordMentionsSql, [
    message.id,
    message.room_id,
    message.sender_id,
    JSON.stringify(mentionCandidates(text)),
  ]);
  return rows[0]?.entities ?? null;
}

export async function withdrawMentions(client: SqlClient, messageId: string, roomId: string): Promise<void> {
  await client.query(withdrawMentionsSql, [messageId, roomId]);
}
