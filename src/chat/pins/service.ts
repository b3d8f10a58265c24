// Room pins (shared, owner/admin), personal pins (the caller's own, no event) and the room's snap-to-top banner.
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { loadMessage, messageErrors } from '../messages/access.js';
import { requireManager, roleIn } from '../base/membership.js';
import { emit, roomAudience } from '../events/emit.js';
import { messageView, type MessageView } from '../base/message-views.js';
import { attachThreadInfo, rootsWithReplies, withThread } from '../threads/thread-info.js';
import {
  addPersonalPin,
  addRoomPin,
  clearSnap,
  lockedSnap,
  lockedSnapMessageId,
  pinnedEntries,
  pinnedEntry,
  removePersonalPin,
  removeRoomPin,
  setSnap,
  snapMessage,
  type PinnedRow,
} from './queries.js';

export type PinScope = 'ROOM' | 'PERSONAL';

export interface PinnedView {
  message: MessageView;
  scope: PinScope;
  personal: boolean;
  pinnedAt: string;
  pinnedBy?: string;
}

export interface SnapView {
  roomId: string;
  messageId: string;
  snappedAt: string;
  snappedBy: string;
}

function pinnedView(row: PinnedRow): PinnedView {
  return {
    message: messageView(row),
    scope: row.room_scope ? 'ROOM' : 'PERSONAL',
    personal: row.personal,
    pinnedAt: row.entry_pinned_at.toISOString(),
    ...(row.pinned_by ? { pinnedBy: row.pinned_by } : {}),
  };
}

export class PinService {
  constructor(private readonly deps: ChatDeps) {}

  /** Newest pin first; pins are unlimited and come in one page. */
  async list(caller: Caller, roomId: string): Promise<PinnedView[]> {
    await roleIn(this.deps.sql, roomId, caller.accountId);
    const pinned = await pinnedEntries(this.deps.sql, roomId, caller.accountId);
    return this.withThreads(this.deps.sql, caller, pinned);
  }

  /** The entries' views, roots with replies carrying their thread (one batched query). */
  private async withThreads(db: SqlPool | SqlClient, caller: Caller, rows: PinnedRow[]): Promise<PinnedView[]> {
    const entries = rows.map(pinnedView);
    await attachThreadInfo(
      db,
      caller.accountId,
      entries.map((e) => e.message),
      rootsWithReplies(rows),
    );
    return entries;
  }

  private async entry(db: SqlPool | SqlClient, caller: Caller, roomId: string, messageId: string): Promise<PinnedView> {
    const row = await pinnedEntry(db, roomId, caller.accountId, messageId);
    return (await this.withThreads(db, caller, [row!]))[0]!;
  }

  /** ROOM: owner/admin, emits pin.added. PERSONAL: any member, no event. Pinning again changes nothing. */
  async pin(caller: Caller, roomId: string, messageId: string, scope: PinScope): Promise<PinnedView> {
    const now = this.deps.clock.now();
    return inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      if (scope === 'ROOM') requireManager(role, 'pin a message for the whole room');
      // key share: a concurrent recall waits for this pin and then removes it
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'key share');
      if (message.recalled_at !== null) throw messageErrors.recalled();
      if (scope === 'ROOM') {
        if (await addRoomPin(client, { roomId, messageId, by: caller.accountId, at: now }))
          await emit(
            client,
            'pin.added',
            { roomId, messageId, pinnedBy: caller.accountId, pinnedAt: now.toISOString() },
            roomAudience(roomId),
          );
      } else {
        await addPersonalPin(client, { accountId: caller.accountId, roomId, messageId, at: now });
      }
      return this.entry(client, caller, roomId, messageId);
    });
  }

  /** Removes the pin of that scope (ROOM: owner/admin, emits pin.removed); a missing pin changes nothing. */
  async unpin(
    caller: Caller,
    roomId: string,
    messageId: string,
    scope: PinScope,
  ): Promise<{ roomId: string; messageId: string; scope: PinScope; state: 'UNPINNED' }> {
    await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      if (scope === 'ROOM') requireManager(role, 'unpin a message for the whole room');
      await loadMessage(client, roomId, messageId, caller.accountId);
      if (scope === 'PERSONAL') {
        await removePersonalPin(client, caller.accountId, messageId);
        return;
      }
      if (!(await removeRoomPin(client, roomId, messageId))) return;
      await emit(client, 'pin.removed', { roomId, messageId, removedBy: caller.accountId }, roomAudience(roomId));
    });
    return { roomId, messageId, scope, state: 'UNPINNED' };
  }

  /**
   * Owner/admin; replaces the room's banner. Snapping the message that is already the banner changes nothing and
   * answers the banner as it is. The room row is locked before the message, as a send and a recall do.
   */
  async snap(caller: Caller, roomId: string, messageId: string): Promise<SnapView> {
    const now = this.deps.clock.now();
    return inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      requireManager(role, 'set the snap-to-top message');
      const current = await lockedSnap(client, roomId);
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'key share');
      if (message.recalled_at !== null) throw messageErrors.recalled();
      const was = current!;
      if (was.snap_message_id === messageId && was.snapped_by && was.snapped_at) {
        return { roomId, messageId, snappedAt: was.snapped_at.toISOString(), snappedBy: was.snapped_by };
      }
      await setSnap(client, { roomId, messageId, by: caller.accountId, at: now });
      await emit(
        client,
        'snap.set',
        {
          roomId,
          messageId,
          snappedBy: caller.accountId,
          snappedAt: now.toISOString(),
          replacedMessageId: was.snap_message_id,
        },
        roomAudience(roomId),
      );
      return { roomId, messageId, snappedAt: now.toISOString(), snappedBy: caller.accountId };
    });
  }

  async getSnap(caller: Caller, roomId: string): Promise<MessageView> {
    await roleIn(this.deps.sql, roomId, caller.accountId);
    const row = await snapMessage(this.deps.sql, roomId, caller.accountId);
    if (!row) throw messageErrors.snapNotFound();
    return withThread(this.deps.sql, caller.accountId, row, messageView(row));
  }

  /** Owner/admin; removing when there is no banner changes nothing. */
  async removeSnap(caller: Caller, roomId: string): Promise<{ roomId: string; state: 'NONE' }> {
    await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      requireManager(role, 'remove the snap-to-top message');
      const messageId = await lockedSnapMessageId(client, roomId);
      if (!messageId) return;
      await clearSnap(client, roomId);
      await emit(client, 'snap.removed', { roomId, messageId, removedBy: caller.accountId }, roomAudience(roomId));
    });
    return { roomId, state: 'NONE' };
  }
}
