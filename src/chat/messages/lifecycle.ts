// Edit, hide, restore and recall. Each change and its outbox row commit together; the drain is requested after.
import { sql } from 'kysely';
import { inTransaction } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { closePollOfRecalledMessage } from '../polls/service.js';
import { pollErrors } from '../polls/errors.js';
import { isManager, roleIn } from '../base/membership.js';
import { loadMessage, messageErrors } from './access.js';
import { recomputeMentions, withdrawMentions } from '../mentions/record.js';
import { accountsAudience, emit, roomAudience } from '../events/emit.js';
import { withThread } from '../threads/thread-info.js';
import { chatDb } from '../base/tables.js';
import { asMessageRow, hiddenForMe, messageColumnNames, messageView, type MessageView } from '../base/message-views.js';

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
      const edited = asMessageRow(
        (await firstRow(
          client,
          chatDb
            .updateTable('messages')
            // A plain text replaces a formatted one: the old spans would point into text that is gone.
            .set({ text, edited_at: now, formatting: null })
            .where('room_id', '=', roomId)
            .where('id', '=', messageId)
            .returning([...messageColumnNames, 'reply_count', hiddenForMe(caller.accountId)]),
        ))!,
      );
      // The new text's mentions replace the old ones: new ones notify, removed ones leave their inboxes.
      const entities = await recomputeMentions(client, edited, text);
      await emit(
        client,
        'message.edited',
        { roomId, messageId, senderId: caller.accountId, editedAt: now.toISOString() },
        roomAudience(roomId),
      );
      return { ...edited, entities };
    });
    return withThread(this.deps.sql, caller.accountId, row, messageView(row));
  }

  /** Hides for the caller only; a repeat finds the row there and changes nothing. */
  async hide(caller: Caller, roomId: string, messageId: string): Promise<VisibilityView> {
    await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      await loadMessage(client, roomId, messageId, caller.accountId);
      const hidden = await affected(
        client,
        chatDb
          .insertInto('message_hides')
          .values({ account_id: caller.accountId, message_id: messageId, room_id: roomId, hidden_at: this.deps.clock.now() })
          .onConflict((oc) => oc.columns(['account_id', 'message_id']).doNothing()),
      );
      if (hidden === 0) return false;
      await emit(client, 'message.hidden', { roomId, messageId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
      return true;
    });
    return { roomId, messageId, state: 'HIDDEN' };
  }

  /** Shows a hidden message again; restoring a message that is not hidden changes nothing. */
  async restore(caller: Caller, roomId: string, messageId: string): Promise<VisibilityView> {
    await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      await loadMessage(client, roomId, messageId, caller.accountId);
      const shown = await affected(
        client,
        chatDb.deleteFrom('message_hides').where('account_id', '=', caller.accountId).where('message_id', '=', messageId),
      );
      if (shown === 0) return false;
      await emit(client, 'message.restored', { roomId, messageId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
      return true;
    });
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
      await rows(client, chatDb.selectFrom('rooms').select(sql.lit(1).as('locked')).where('id', '=', roomId).forNoKeyUpdate());
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'update');
      if (message.sender_id !== caller.accountId && !isManager(role)) {
        throw chatErrors.forbidden('Only the sender or an owner or admin of the room may recall a message.');
      }
      if (message.recalled_at !== null) return { row: message, changed: false };
      const recalled = asMessageRow(
        (await firstRow(
          client,
          chatDb
            .updateTable('messages')
            .set({ recalled_at: now, text: null })
            .where('room_id', '=', roomId)
            .where('id', '=', messageId)
            .returning([...messageColumnNames, 'reply_count', hiddenForMe(caller.accountId)]),
        ))!,
      );
      if (message.type === 'POLL') await closePollOfRecalledMessage(client, messageId, caller.accountId, now);
      await affected(client, chatDb.deleteFrom('message_reactions').where('message_id', '=', messageId));
      await withdrawMentions(client, messageId, roomId);
      await affected(client, chatDb.deleteFrom('personal_pins').where('message_id', '=', messageId));
      const unpinned = await affected(
        client,
        chatDb.deleteFrom('room_pins').where('room_id', '=', roomId).where('message_id', '=', messageId),
      );
      const unsnapped = await affected(
        client,
        chatDb
          .updateTable('rooms')
          .set({ snap_message_id: null, snapped_by: null, snapped_at: null })
          .where('id', '=', roomId)
          .where('snap_message_id', '=', messageId),
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
      if (unpinned) await emit(client, 'pin.removed', { roomId, messageId, removedBy: caller.accountId, reason: 'recalled' }, audience);
      if (unsnapped) await emit(client, 'snap.removed', { roomId, messageId, removedBy: caller.accountId, reason: 'recalled' }, audience);
      return { row: recalled, changed: true };
    });
    return withThread(this.deps.sql, caller.accountId, result.row, messageView(result.row));
  }
}
