// Edit, hide, restore and recall. Each change and its outbox row commit together; the drain is requested after.
import { inTransaction } from '../../platform/db/sql.js';
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
import { messageView, type MessageView } from '../base/message-views.js';
import { deleteReactions, editMessage, hideMessage, lockRoom, recallMessage, restoreMessage, unpinRecalled } from './queries.js';

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
      const edited = await editMessage(client, roomId, messageId, caller.accountId, text, now);
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
      if (!(await hideMessage(client, { accountId: caller.accountId, messageId, roomId, at: this.deps.clock.now() }))) return;
      await emit(client, 'message.hidden', { roomId, messageId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
    });
    return { roomId, messageId, state: 'HIDDEN' };
  }

  /** Shows a hidden message again; restoring a message that is not hidden changes nothing. */
  async restore(caller: Caller, roomId: string, messageId: string): Promise<VisibilityView> {
    await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      await loadMessage(client, roomId, messageId, caller.accountId);
      if (!(await restoreMessage(client, caller.accountId, messageId))) return;
      await emit(client, 'message.restored', { roomId, messageId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
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
    const row = await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      await lockRoom(client, roomId);
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'update');
      if (message.sender_id !== caller.accountId && !isManager(role)) {
        throw chatErrors.forbidden('Only the sender or an owner or admin of the room may recall a message.');
      }
      if (message.recalled_at !== null) return message;
      const recalled = await recallMessage(client, roomId, messageId, caller.accountId, now);
      if (message.type === 'POLL') await closePollOfRecalledMessage(client, messageId, caller.accountId, now);
      await deleteReactions(client, messageId);
      await withdrawMentions(client, messageId, roomId);
      const { unpinned, unsnapped } = await unpinRecalled(client, roomId, messageId);
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
      return recalled;
    });
    return withThread(this.deps.sql, caller.accountId, row, messageView(row));
  }
}
