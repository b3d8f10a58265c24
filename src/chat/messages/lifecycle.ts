// Edit, hide, restore and recall. Each change and its outbox row commit together; the drain is requested after.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { closePollOfRecalledMessage } from '../polls/service.js';
import { pollErrors } from '../polls/errors.js';
import { isManager, roleIn } from '../rooms/membership.js';
import { loadMessage, messageErrors } from './access.js';
import { recomputeMentions, withdrawMentions } from '../mentions/record.js';
import { accountsAudience, emit, roomAudience } from '../events/emit.js';
import { replyCountColumn, withThread } from '../threads/thread-info.js';
import { hiddenForMeColumn, messageColumns, messageView, type MessageRow, type MessageView } from './views.js';

export interface VisibilityView {
  roomId: string;
  messageId: string;
  state: 'HIDDEN' | 'VISIBLE';
}

export class MessageLifecycleService {
  constructor(private readonly deps: ChatDeps) {}

  /** Sender only, inside the edit window (MESSAGE_EDIT_WINDOW_SECONDS after sending; 0 turns editing off). */
  async edit(caller: Caller, roomId: string, messageId: string, text: string): Promise<MessageView> {
    const now = this.deps.clock.now();
    const windowSeconds = this.deps.config.messageEditWindowSeconds;
    const row = await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'update');
      if (message.sender_id !== caller.accountId) throw chatErrors.forbidden('Only the sender may edit a message.');
      if (message.recalled_at !== null) throw messageErrors.recalled();
      if (message.type === 'POLL') throw pollErrors.notEditable();
      if (now.getTime() >= message.created_at.getTime() + windowSeconds * 1000) throw messageErrors.editWindowExpired(windowSeconds);
      const { rows } = await client.query<MessageRow>(
        `update messages set text = $3, edited_at = $4 where room_id = $1 and id = $2
         returning ${messageColumns}, ${replyCountColumn()}, ${hiddenForMeColumn('$5')}`,
        [roomId, messageId, text, now, caller.accountId],
      );
      // The new text's mentions replace the old ones: new ones notify, removed ones leave their inboxes.
      const entities = await recomputeMentions(client, rows[0]!, text);
      await emit(
        client,
        'message.edited',
        { roomId, messageId, senderId: caller.accountId, editedAt: now.toISOString() },
        roomAudience(roomId),
      );
      return { ...rows[0]!, entities };
    });
    this.deps.queues.requestOutboxDrain();
    return withThread(this.deps.sql, caller.accountId, row, messageView(row));
  }

  /** Hides for the caller only; a repeat finds the row there and changes nothing. */
  async hide(caller: Caller, roomId: string, messageId: string): Promise<VisibilityView> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      await loadMessage(client, roomId, messageId, caller.accountId);
      const { rowCount } = await client.query(
        `insert into message_hides (account_id, message_id, room_id, hidden_at) values ($1, $2, $3, $4)
         on conflict (account_id, message_id) do nothing`,
        [caller.accountId, messageId, roomId, this.deps.clock.now()],
      );
      if (rowCount === 0) return false;
      await emit(client, 'message.hidden', { roomId, messageId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return { roomId, messageId, state: 'HIDDEN' };
  }

  /** Shows a hidden message again; restoring a message that is not hidden changes nothing. */
  async restore(caller: Caller, roomId: string, messageId: string): Promise<VisibilityView> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      await loadMessage(client, roomId, messageId, caller.accountId);
      const { rowCount } = await client.query('delete from message_hides where account_id = $1 and message_id = $2', [
        caller.accountId,
        messageId,
      ]);
      if (rowCount === 0) return false;
      await emit(client, 'message.restored', { roomId, messageId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return { roomId, messageId, state: 'VISIBLE' };
  }

  /**
   * Recall for everyone, by the sender or an owner/admin. The text is erased from storage and the reactions,
   * pins (room and personal) and the room's banner on this message are removed. The room row is locked before
   * the message, the order every send (and thread reply) takes, so a recall never deadlocks with them.
   */
  async recall(caller: Caller, roomId: string, messageId: string): Promise<MessageView> {
    const now = this.deps.clock.now();
    const result = await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      await client.query('select 1 from rooms where id = $1 for no key update', [roomId]);
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'update');
      if (message.sender_id !== caller.accountId && !isManager(role)) {
        throw chatErrors.forbidden('Only the sender or an owner or admin of the room may recall a message.');
      }
      if (message.recalled_at !== null) return { row: message, changed: false };
      const { rows } = await client.query<MessageRow>(
        `update messages set recalled_at = $3, text = null where room_id = $1 and id = $2
         returning ${messageColumns}, ${replyCountColumn()}, ${hiddenForMeColumn('$4')}`,
        [roomId, messageId, now, caller.accountId],
      );
      if (message.type === 'POLL') await closePollOfRecalledMessage(client, messageId, caller.accountId, now);
      await client.query('delete from message_reactions where message_id = $1', [messageId]);
      await withdrawMentions(client, messageId, roomId);
      await client.query('delete from personal_pins where message_id = $1', [messageId]);
      const unpinned = await client.query('delete from room_pins where room_id = $1 and message_id = $2', [roomId, messageId]);
      const unsnapped = await client.query(
        'update rooms set snap_message_id = null, snapped_by = null, snapped_at = null where id = $1 and snap_message_id = $2',
        [roomId, messageId],
      );
      const audience = roomAudience(roomId);
      await emit(
        client,
        'message.recalled',
        {
          roomId,
          messageId,
          senderId: message.sender_id,
          recalledBy: caller.accountId,
          recalledAt: now.toISOString(),
        },
        audience,
      );
      if (unpinned.rowCount)
        await emit(client, 'pin.removed', { roomId, messageId, removedBy: caller.accountId, reason: 'recalled' }, audience);
      if (unsnapped.rowCount)
        await emit(client, 'snap.removed', { roomId, messageId, removedBy: caller.accountId, reason: 'recalled' }, audience);
      return { row: rows[0]!, changed: true };
    });
    if (result.changed) this.deps.queues.requestOutboxDrain();
    return withThread(this.deps.sql, caller.accountId, result.row, messageView(result.row));
  }
}
