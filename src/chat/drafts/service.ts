// The caller's draft per room: overwritten by a save, deleted by empty text or DELETE. Each change is announced to
// the caller's own sessions only; a save of the same text, or a delete of no draft, changes and announces nothing.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { accountsAudience, emit } from '../events/emit.js';
import { roomNotFound } from '../base/membership.js';
import { lockMembership } from './membership.js';
import { deleteDraft, draftOfMember, upsertDraft } from './queries.js';

export interface DraftView {
  roomId: string;
  text: string | null;
  updatedAt: string | null;
}

export class DraftService {
  constructor(private readonly deps: ChatDeps) {}

  async get(caller: Caller, roomId: string): Promise<DraftView> {
    const row = await draftOfMember(this.deps.sql, caller.accountId, roomId);
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
    await inTransaction(this.deps.sql, async (client) => {
      await lockMembership(client, caller, roomId);
      if (!(await upsertDraft(client, { accountId: caller.accountId, roomId, text, at: now }))) return;
      await emit(
        client,
        'draft.saved',
        { roomId, accountId: caller.accountId, text, updatedAt: now.toISOString() },
        accountsAudience([caller.accountId]),
      );
    });
    return this.get(caller, roomId);
  }

  async delete(caller: Caller, roomId: string): Promise<{ roomId: string; status: 'deleted' }> {
    await inTransaction(this.deps.sql, async (client) => {
      await lockMembership(client, caller, roomId);
      if (!(await deleteDraft(client, caller.accountId, roomId))) return;
      await emit(client, 'draft.deleted', { roomId, accountId: caller.accountId }, accountsAudience([caller.accountId]));
    });
    return { roomId, status: 'deleted' };
  }
}
