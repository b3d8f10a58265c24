// The caller's draft per room: overwritten by a save, deleted by empty text or DELETE. Each change is announced to
// the caller's own sessions only; a save of the same text, or a delete of no draft, changes and announces nothing.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { accountsAudience, emit } from '../rooms/events.js';
import { roomNotFound } from '../rooms/membership.js';
import { lockMembership } from './membership.js';

export interface DraftView {
  roomId: string;
  text: string | null;
  updatedAt: string | null;
}

export class DraftService {
  constructor(private readonly deps: ChatDeps) {}

  async get(caller: Caller, roomId: string): Promise<DraftView> {
    const { rows } = await this.deps.sql.query<{ text: string | null; updated_at: Date | null }>(
      `select d.text, d.updated_at
         from room_members m join rooms r on r.id = m.room_id and r.deleted_at is null
         left join drafts d on d.account_id = m.account_id and d.room_id = m.room_id
        where m.room_id = $1 and m.account_id = $2`,
      [roomId, caller.accountId],
    );
    const row = rows[0];
    if (!row) throw roomNotFound();
    return { roomId, text: row.text, updatedAt: row.updated_at ? row.updated_at.toISOString() : null };
  }

  /** Text with no character other than white space is no draft: saving it deletes the draft. */
  async save(caller: Caller, roomId: string, text: string): Promise<DraftView> {
    if (text.trim().length === 0) {
      await this.delete(caller, roomId);
      return { roomId, text: null, updatedAt: null };
    }
    const now = this.deps.clock.now();
    const result = await inTransaction(this.deps.sql, async (client) => {
      await lockMembership(client, caller, roomId);
      const { rows } = await client.query<{ updated_at: Date }>(
        `insert into drafts (account_id, room_id, text, updated_at) values ($1, $2, $3, $4)
         on conflict (account_id, room_id) do update set text = excluded.text, updated_at = excluded.updated_at
          where drafts.text <> excluded.text
         returning updated_at`,
        [caller.accountId, roomId, text, now],
      );
      if (!rows[0]) return { changed: false };
      await emit(client, 'draft.saved', { roomId, accountId: caller.accountId, text, updatedAt: now.toISOString() }, accountsAudience([caller.accountId]));
      return { changed: true };
    });
    if (result.changed) this.deps.queues.requestOutboxDrain();
    return this.get(caller, roomId);
  }

  async delete(caller: Caller, roomId: string): Promise<{ roomId: string; status: 'deleted' }> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      await lockMembership(client, caller, roomId);
      const { rowCount } = await client.query('delete from drafts where account_id = $1 and room_id = $2', [caller.accountId, roomId]);
      if (!rowCount) return false;
      await emit(client, 'draft.deleted', { roomId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return { roomId, status: 'deleted' };
  }
}
