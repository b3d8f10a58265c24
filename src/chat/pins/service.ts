// Room pins (shared, owner/admin), personal pins (the caller's own, no event) and the room's snap-to-top banner.
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { loadMessage, messageErrors } from '../messages/access.js';
import { requireManager, roleIn } from '../base/membership.js';
import { emit, roomAudience } from '../events/emit.js';
import { messageView, type MessageView } from '../base/message-views.js';
import { attachThreadInfo, rootsWithReplies, withThread } from '../threads/thread-info.js';
import { hiddenForMe, messageSelection } from '../threads/message-selection.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import type { InferResult } from 'kysely';

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

/**
 * The room's pins merged with the caller's personal ones into one entry per message: a room pin gives the entry
 * its scope, time and author; `personal` says whether the caller also pinned it.
 */
function pinnedQuery(roomId: string, accountId: string) {
  return chatDb
    .with('r', (db) => db.selectFrom('room_pins').select(['message_id', 'pinned_by', 'pinned_at']).where('room_id', '=', roomId))
    .with('p', (db) =>
      db.selectFrom('personal_pins').select(['message_id', 'pinned_at']).where('account_id', '=', accountId).where('room_id', '=', roomId),
    )
    .with('e', (db) =>
      db
        .selectFrom('r')
        .fullJoin('p', 'p.message_id', 'r.message_id')
        .select((eb) => [
          eb.fn.coalesce('r.message_id', 'p.message_id').$castTo<string>().as('message_id'),
          eb('r.message_id', 'is not', null).$castTo<boolean>().as('room_scope'),
          eb('p.message_id', 'is not', null).$castTo<boolean>().as('personal'),
          eb.fn.coalesce('r.pinned_at', 'p.pinned_at').$castTo<Date>().as('entry_pinned_at'),
          'r.pinned_by',
        ]),
    )
    .selectFrom('e')
    .innerJoin('messages as m', 'm.id', 'e.message_id')
    .select((eb) => [
      ...messageSelection(eb),
      'm.reply_count',
      hiddenForMe(eb, accountId),
      'e.room_scope',
      'e.personal',
      'e.entry_pinned_at',
      'e.pinned_by',
    ]);
}

type PinnedRow = InferResult<ReturnType<typeof pinnedQuery>>[number];

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
    const pinned = await rows(
      this.deps.sql,
      pinnedQuery(roomId, caller.accountId).orderBy('e.entry_pinned_at', 'desc').orderBy('e.message_id', 'desc'),
    );
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
    const row = await firstRow(db, pinnedQuery(roomId, caller.accountId).where('e.message_id', '=', messageId));
    return (await this.withThreads(db, caller, [row!]))[0]!;
  }

  /** ROOM: owner/admin, emits pin.added. PERSONAL: any member, no event. Pinning again changes nothing. */
  async pin(caller: Caller, roomId: string, messageId: string, scope: PinScope): Promise<PinnedView> {
    const now = this.deps.clock.now();
    const result = await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      if (scope === 'ROOM') requireManager(role, 'pin a message for the whole room');
      // key share: a concurrent recall waits for this pin and then removes it
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'key share');
      if (message.recalled_at !== null) throw messageErrors.recalled();
      let changed = false;
      if (scope === 'ROOM') {
        const added = await affected(
          client,
          chatDb
            .insertInto('room_pins')
            .values({ room_id: roomId, message_id: messageId, pinned_by: caller.accountId, pinned_at: now })
            .onConflict((oc) => oc.columns(['room_id', 'message_id']).doNothing()),
        );
        changed = added === 1;
        if (changed)
          await emit(
            client,
            'pin.added',
            { roomId, messageId, pinnedBy: caller.accountId, pinnedAt: now.toISOString() },
            roomAudience(roomId),
          );
      } else {
        await affected(
          client,
          chatDb
            .insertInto('personal_pins')
            .values({ account_id: caller.accountId, message_id: messageId, room_id: roomId, pinned_at: now })
            .onConflict((oc) => oc.columns(['account_id', 'message_id']).doNothing()),
        );
      }
      return { entry: await this.entry(client, caller, roomId, messageId), changed };
    });
    return result.entry;
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
        await affected(
          client,
          chatDb.deleteFrom('personal_pins').where('account_id', '=', caller.accountId).where('message_id', '=', messageId),
        );
        return false;
      }
      const removed = await affected(
        client,
        chatDb.deleteFrom('room_pins').where('room_id', '=', roomId).where('message_id', '=', messageId),
      );
      if (removed === 0) return false;
      await emit(client, 'pin.removed', { roomId, messageId, removedBy: caller.accountId }, roomAudience(roomId));
      return true;
    });
    return { roomId, messageId, scope, state: 'UNPINNED' };
  }

  /**
   * Owner/admin; replaces the room's banner. Snapping the message that is already the banner changes nothing and
   * answers the banner as it is. The room row is locked before the message, as a send and a recall do.
   */
  async snap(caller: Caller, roomId: string, messageId: string): Promise<SnapView> {
    const now = this.deps.clock.now();
    const result = await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      requireManager(role, 'set the snap-to-top message');
      const current = await firstRow(
        client,
        chatDb.selectFrom('rooms').select(['snap_message_id', 'snapped_by', 'snapped_at']).where('id', '=', roomId).forNoKeyUpdate(),
      );
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'key share');
      if (message.recalled_at !== null) throw messageErrors.recalled();
      const was = current!;
      if (was.snap_message_id === messageId && was.snapped_by && was.snapped_at) {
        return { view: { roomId, messageId, snappedAt: was.snapped_at.toISOString(), snappedBy: was.snapped_by }, changed: false };
      }
      await affected(
        client,
        chatDb
          .updateTable('rooms')
          .set({ snap_message_id: messageId, snapped_by: caller.accountId, snapped_at: now })
          .where('id', '=', roomId),
      );
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
      return { view: { roomId, messageId, snappedAt: now.toISOString(), snappedBy: caller.accountId }, changed: true };
    });
    return result.view;
  }

  async getSnap(caller: Caller, roomId: string): Promise<MessageView> {
    await roleIn(this.deps.sql, roomId, caller.accountId);
    const row = await firstRow(
      this.deps.sql,
      chatDb
        .selectFrom('rooms as r')
        .innerJoin('messages as m', 'm.id', 'r.snap_message_id')
        .select((eb) => [...messageSelection(eb), 'm.reply_count', hiddenForMe(eb, caller.accountId)])
        .where('r.id', '=', roomId),
    );
    if (!row) throw messageErrors.snapNotFound();
    return withThread(this.deps.sql, caller.accountId, row, messageView(row));
  }

  /** Owner/admin; removing when there is no banner changes nothing. */
  async removeSnap(caller: Caller, roomId: string): Promise<{ roomId: string; state: 'NONE' }> {
    await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      requireManager(role, 'remove the snap-to-top message');
      const current = await firstRow(
        client,
        chatDb.selectFrom('rooms').select('snap_message_id').where('id', '=', roomId).forNoKeyUpdate(),
      );
      const messageId = current?.snap_message_id;
      if (!messageId) return false;
      await affected(
        client,
        chatDb.updateTable('rooms').set({ snap_message_id: null, snapped_by: null, snapped_at: null }).where('id', '=', roomId),
      );
      await emit(client, 'snap.removed', { roomId, messageId, removedBy: caller.accountId }, roomAudience(roomId));
      return true;
    });
    return { roomId, state: 'NONE' };
  }
}
