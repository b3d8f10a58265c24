// The mentions step of the paths that store a message in a transaction of several statements (replies, sends with
// files) and of edits and recalls. The plain send carries the same step inside its one statement (messages/send-queries.ts).
import type { Selectable } from 'kysely';
import type { ChatTables } from '../base/tables.js';
import type { SqlClient } from '../../platform/db/sql.js';
import { mayMention, mentionCandidates } from './parse.js';
import { recordMessageMentions, withdrawMessageMentions } from './mention-queries.js';
import type { MentionEntity, MessageRow } from '../base/message-views.js';

export type StoredMessage = Pick<Selectable<ChatTables['messages']>, 'id' | 'room_id' | 'sender_id'>;

/**
 * Records the mentions of a message just stored with `text`, in the caller's transaction. Returns the entities to
 * put on the row (null when none). Nothing runs when the text holds no '@'.
 */
export async function recordMentions(client: SqlClient, message: StoredMessage, text: string | null): Promise<MentionEntity[] | null> {
  if (text === null || !mayMention(text)) return null;
  return recomputeMentions(client, message, text);
}

/**
 * The step that records a stored message's mentions in its transaction (a reply's `decorate`); none for a text
 * without '@'.
 */
export function withMentionsOf(text: string): ((client: SqlClient, row: MessageRow) => Promise<MessageRow>) | undefined {
  if (!mayMention(text)) return undefined;
  return async (client, row) => ({ ...row, entities: await recordMentions(client, row, text) });
}

/** An edit: the new text's mentions replace the old ones (new ones notify, removed ones are withdrawn). */
export async function recomputeMentions(client: SqlClient, message: StoredMessage, text: string): Promise<MentionEntity[] | null> {
  return recordMessageMentions(client, message.id, message.room_id, message.sender_id, JSON.stringify(mentionCandidates(text)));
}

export async function withdrawMentions(client: SqlClient, messageId: string, roomId: string): Promise<void> {
  await withdrawMessageMentions(client, messageId, roomId);
}
