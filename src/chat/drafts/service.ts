// The caller's draft per room: overwritten by a save, deleted by empty text or DELETE. Each change is announced to
// the caller's own sessions only; a save of the same text, or a delete of no draft, changes and announces nothing.
import { inTransaction } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { accountsAudience, emit } from '../events/emit.js';
import { roomNotFound } from '../base/membership.js';
import { chatDb } from '../base/tables.js';
import { lockMembership } from './membership.js';

export interface DraftView {
  roomId: string;
  text: string | null;
  updatedAt: string | null;
}

export class DraftService {
  constructor(private readonly deps: ChatDeps) {}

  async get(caller: Caller, roomId: string): Promise<DraftView> {
    const row = await firstRow(
      this.deps.sql,
      chatDb
        .selectFrom('room_members as m')
        .innerJoin('rooms as r', (join) => join.onRef('r.id', '=', 'm.room_id').on('r.deleted_at', 'is', null))
        .leftJoin('drafts as d', (join) => join.onRef('d.account_id', '=', 'm.account_id').onRef('d.room_id', '=', 'm.room_id'))
        .select(['d.text', 'd.updated_at'])
        .where('m.room_id', '=', roomId)
        .where('m.account_id', '=', caller.accountId),
    );
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
      const written = await rows(
        client,
        chatDb
          .insertInto('drafts')
          .values({ account_id: caller.accountId, room_id: roomId, text, updated_at: now })
          .onConflict((oc) =>
            oc
              .columns(['account_id', 'room_id'])
              .doUpdateSet((eb) => ({ text: eb.ref('excluded.text'), updated_at: eb.ref('excluded.updated_at') }))
              .whereRef('drafts.text', '<>', 'excluded.text'),
          )
          .returning('updated_at'),
      );
      if (!written[0]) return { changed: false };
      await emit(
        client,
        'draft.saved',
        { roomId, accountId: caller.accountId, text, updatedAt: now.toISOString() },
        accountsAudience([caller.accountId]),
      );
      return { changed: true };
    });
    if (result.changed) this.deps.queues.requestOutboxDrain();
    return this.get(caller, roomId);
  }

  async delete(caller: Caller, roomId: string): Promise<{ roomId: string; status: 'deleted' }> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      await lockMembership(client, caller, roomId);
      const deleted = await affected(
        client,
        chatDb.deleteFrom('drafts').where('account_id', '=', caller.accountId).where('room_id', '=', roomId),
      );
      if (!deleted) return false;
      await emit(client, 'draft.deleted', { roomId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return { roomId, status: 'deleted' };
  }
}
