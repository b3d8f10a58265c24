// Room pins (shared, owner/admin), personal pins (the caller's own, no event) and the room's snap-to-top banner.
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { loadMessage, messageErrors } from '../messages/access.js';
import { requireManager, roleIn } from '../rooms/membership.js';
import { emit, roomAudience } from '../events/emit.js';
import { hiddenForMeColumn, messageColumnsOf, messageView, type MessageRow, type MessageView } from '../messages/views.js';
import { attachThreadInfo, replyCountColumn, rootsWithReplies, withThread } from '../threads/thread-info.js';

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

interface PinnedRow extends MessageRow {
  room_scope: boolean;
  personal: boolean;
  entry_pinned_at: Date;
  pinned_by: string | null;
}

/**
 * The room's pins merged with the caller's personal ones into one entry per message: a room pin gives the entry
 * its scope, time and author; `personal` says whether the caller also pinned it. $1 room, $2 caller.
 */
const pinnedSql = `
  with r as (select message_id, pinned_by, pinned_at from room_pins where room_id = $1),
       p as (select message_id, pinned_at from personal_pins where account_id = $2 and room_id = $1),
       e as (
         select coalesce(r.message_id, p.message_id) as message_id, r.message_id is not null as room_scope,
                p.message_id is not null as personal, coalesce(r.pinned_at, p.pinned_at) as entry_pinned_at, r.pinned_by
           from r full join p on p.message_id = r.message_id)
  select ${messageColumnsOf('m')}, ${replyCountColumn('m')}, ${hiddenForMeColumn('$2', 'm')}, e.room_scope, e.personal, e.entry_pinned_at, e.pinned_by
    from e join messages m on m.id = e.message_id`;

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
    const { rows } = await this.deps.sql.query<PinnedRow>(`${pinnedSql} order by e.entry_pinned_at desc, e.message_id desc`, [
      roomId,
      caller.accountId,
    ]);
    return this.withThreads(this.deps.sql, caller, rows);
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
    const { rows } = await db.query<PinnedRow>(`${pinnedSql} where e.message_id = $3`, [roomId, caller.accountId, messageId]);
    return (await this.withThreads(db, caller, [rows[0]!]))[0]!;
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
        const { rowCount } = await client.query(
          `insert into room_pins (room_id, message_id, pinned_by, pinned_at) values ($1, $2, $3, $4) on conflict (room_id, message_id) do nothing`,
          [roomId, messageId, caller.accountId, now],
        );
        changed = rowCount === 1;
        if (changed)
          await emit(
            client,
            'pin.added',
            { roomId, messageId, pinnedBy: caller.accountId, pinnedAt: now.toISOString() },
            roomAudience(roomId),
          );
      } else {
        await client.query(
          `insert into personal_pins (account_id, message_id, room_id, pinned_at) values ($1, $2, $3, $4) on conflict (account_id, message_id) do nothing`,
          [caller.accountId, messageId, roomId, now],
        );
      }
      return { entry: await this.entry(client, caller, roomId, messageId), changed };
    });
    if (result.changed) this.deps.queues.requestOutboxDrain();
    return result.entry;
  }

  /** Removes the pin of that scope (ROOM: owner/admin, emits pin.removed); a missing pin changes nothing. */
  async unpin(
    caller: Caller,
    roomId: string,
    messageId: string,
    scope: PinScope,
  ): Promise<{ roomId: string; messageId: string; scope: PinScope; state: 'UNPINNED' }> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      if (scope === 'ROOM') requireManager(role, 'unpin a message for the whole room');
      await loadMessage(client, roomId, messageId, caller.accountId);
      if (scope === 'PERSONAL') {
        await client.query('delete from personal_pins where account_id = $1 and message_id = $2', [caller.accountId, messageId]);
        return false;
      }
      const { rowCount } = await client.query('delete from room_pins where room_id = $1 and message_id = $2', [roomId, messageId]);
      if (rowCount === 0) return false;
      await emit(client, 'pin.removed', { roomId, messageId, removedBy: caller.accountId }, roomAudience(roomId));
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
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
      const current = await client.query<{ snap_message_id: string | null; snapped_by: string | null; snapped_at: Date | null }>(
        'select snap_message_id, snapped_by, snapped_at from rooms where id = $1 for no key update',
        [roomId],
      );
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'key share');
      if (message.recalled_at !== null) throw messageErrors.recalled();
      const was = current.rows[0]!;
      if (was.snap_message_id === messageId && was.snapped_by && was.snapped_at) {
        return { view: { roomId, messageId, snappedAt: was.snapped_at.toISOString(), snappedBy: was.snapped_by }, changed: false };
      }
      await client.query('update rooms set snap_message_id = $2, snapped_by = $3, snapped_at = $4 where id = $1', [
        roomId,
        messageId,
        caller.accountId,
        now,
      ]);
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
    if (result.changed) this.deps.queues.requestOutboxDrain();
    return result.view;
  }

  async getSnap(caller: Caller, roomId: string): Promise<MessageView> {
    await roleIn(this.deps.sql, roomId, caller.accountId);
    const { rows } = await this.deps.sql.query<MessageRow>(
      `select ${messageColumnsOf('m')}, ${replyCountColumn('m')}, ${hiddenForMeColumn('$2', 'm')} from rooms r join messages m on m.id = r.snap_message_id where r.id = $1`,
      [roomId, caller.accountId],
    );
    if (!rows[0]) throw messageErrors.snapNotFound();
    return withThread(this.deps.sql, caller.accountId, rows[0], messageView(rows[0]));
  }

  /** Owner/admin; removing when there is no banner changes nothing. */
  async removeSnap(caller: Caller, roomId: string): Promise<{ roomId: string; state: 'NONE' }> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const role = await roleIn(client, roomId, caller.accountId);
      requireManager(role, 'remove the snap-to-top message');
      const current = await client.query<{ snap_message_id: string | null }>(
        'select snap_message_id from rooms where id = $1 for no key update',
        [roomId],
      );
      const messageId = current.rows[0]?.snap_message_id;
      if (!messageId) return false;
      await client.query('update rooms set snap_message_id = null, snapped_by = null, snapped_at = null where id = $1', [roomId]);
      await emit(client, 'snap.removed', { roomId, messageId, removedBy: caller.accountId }, roomAudience(roomId));
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return { roomId, state: 'NONE' };
  }
}
