// What the message and pin operations check before they change anything: the caller's role in the room, the
// message (locked for the rest of the transaction), and the codes of this feature's refusals.
import type { SqlClient, SqlPool } from '../../platform/db/sql.js';
import { chatError, chatErrors } from '../base/errors.js';
import { asMessageRow, type MessageRow } from '../base/message-views.js';
import { messageOf } from './queries.js';

export const messageErrors = {
  recalled: () =>
    chatErrors.conflict('message_recalled', 'The message was recalled; it can no longer be edited, reacted to, pinned or snapped.'),
  editWindowExpired: (seconds: number) =>
    chatErrors.conflict('edit_window_expired', `A message can be edited only within ${seconds} seconds of sending.`),
  snapNotFound: () => chatErrors.notFound('A snap-to-top message', 'snap_not_found'),
  /** Forwarded ids that are not messages of the source room, by their place in body.messageIds. */
  forwardNotFound: (indexes: number[]) =>
    chatError(
      404,
      'message_not_found',
      'Some of body.messageIds are not messages of the source room.',
      indexes.map((i) => ({
        location: `body.messageIds[${i}]`,
        message: 'is not a message of the source room',
      })),
    ),
  forwardRecalled: (indexes: number[]) =>
    chatError(
      409,
      'message_recalled',
      'Some of body.messageIds were recalled and cannot be forwarded.',
      indexes.map((i) => ({
        location: `body.messageIds[${i}]`,
        message: 'was recalled',
      })),
    ),
  sourceRoomNotFound: () =>
    chatError(404, 'room_not_found', 'The source room was not found.', [
      { location: 'body.fromRoomId', message: 'names no room the caller is a member of' },
    ]),
};

type Queryable = SqlPool | SqlClient;

/**
 * The message with the caller's hidden flag, locked when asked: `update` for changes of the message itself (edit,
 * recall), `key share` for rows that hang off it (reactions, pins, snap, forwarded copies), so a recall waits for
 * them and they wait for a recall. `key share` does not block a thread reply updating its root's counters, and an
 * operation that locks the room row too takes it first, as a send does, so the two never wait on each other.
 */
export async function loadMessage(
  db: Queryable,
  roomId: string,
  messageId: string,
  callerId: string,
  lock: 'update' | 'key share' | null = null,
): Promise<MessageRow> {
  const row = await messageOf(db, roomId, messageId, callerId, lock);
  if (!row) throw chatErrors.notFound('Message', 'message_not_found');
  return asMessageRow(row);
}
