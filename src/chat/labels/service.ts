// Personal labels: each account's own, invisible to anyone else (another account's label is 404 like an unknown
// one). A label is put on rooms the owner is a member of; roomCount counts them exactly, because the rows go when
// the label, the room or the owner's membership goes. Every change is announced to the owner's sessions only.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatError, chatErrors } from '../base/errors.js';
import { lockMembership } from '../drafts/membership.js';
import { accountsAudience, emit } from '../events/emit.js';
import {
  addRoomLabels,
  countLabels,
  deleteLabel,
  deleteRoomLabelsOf,
  insertLabel,
  labelOf,
  labelsOf,
  lockLabelCreation,
  lockOwnedLabels,
  removeRoomLabelsExcept,
  roomLabelIds,
  updateLabel,
  type LabelRow,
} from './queries.js';

/** Labels per account: the label list is one page, and a sidebar of more labels than this helps nobody. */
export const labelsPerAccountMax = 100;

export interface LabelView {
  id: string;
  name: string;
  color: string;
  ownerId: string;
  roomCount: number;
  createdAt: string;
  updatedAt: string;
}

export const labelErrors = {
  notFound: () => chatErrors.notFound('Label', 'label_not_found'),
  nameTaken: (location: string) =>
    chatError(409, 'label_name_taken', 'The caller already has a label of this name (letter case ignored).', [
      { location, message: 'is the name of another label of the caller' },
    ]),
  limit: () => chatErrors.conflict('label_limit_reached', `An account holds at most ${labelsPerAccountMax} labels; delete one first.`),
};

const view = (row: LabelRow): LabelView => ({
  id: row.id,
  name: row.name,
  color: row.color,
  ownerId: row.owner_id,
  roomCount: row.room_count,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const isUniqueViolation = (err: unknown): boolean => (err as { code?: string }).code === '23505';

export interface LabelInput {
  name?: string;
  color?: string;
}

export class LabelService {
  constructor(private readonly deps: ChatDeps) {}

  async list(caller: Caller): Promise<LabelView[]> {
    const found = await labelsOf(this.deps.sql, caller.accountId);
    return found.map(view);
  }

  async create(caller: Caller, input: Required<LabelInput>): Promise<LabelView> {
    const name = input.name.trim();
    const color = input.color.toUpperCase();
    const id = newId();
    const now = this.deps.clock.now();
    await this.write(async (client) => {
      // One create at a time per account, so the count below cannot be passed by a concurrent create.
      await lockLabelCreation(client, caller.accountId);
      if ((await countLabels(client, caller.accountId)) >= labelsPerAccountMax) throw labelErrors.limit();
      await insertLabel(client, { id, ownerId: caller.accountId, name, color, at: now });
      await emit(client, 'label.created', { labelId: id, name, color }, accountsAudience([caller.accountId]));
    });
    return this.get(this.deps.sql, caller, id);
  }

  /** Only fields that differ are written; a call that changes nothing emits nothing. */
  async update(caller: Caller, labelId: string, input: LabelInput): Promise<LabelView> {
    const name = input.name?.trim();
    const color = input.color?.toUpperCase();
    await this.write(async (client) => {
      const current = await this.get(client, caller, labelId, true);
      const changes: Record<string, string> = {};
      if (name !== undefined && name !== current.name) changes.name = name;
      if (color !== undefined && color !== current.color) changes.color = color;
      if (Object.keys(changes).length === 0) return;
      await updateLabel(client, labelId, {
        name: changes.name ?? current.name,
        color: changes.color ?? current.color,
        at: this.deps.clock.now(),
      });
      await emit(client, 'label.updated', { labelId, changes }, accountsAudience([caller.accountId]));
    });
    return this.get(this.deps.sql, caller, labelId);
  }

  /** Removes the label from every room it is on (the rows cascade) in the same transaction. */
  async delete(caller: Caller, labelId: string): Promise<{ labelId: string; status: 'deleted'; roomCount: number }> {
    const roomIds = await this.write(async (client) => {
      await this.get(client, caller, labelId, true);
      const ids = (await deleteRoomLabelsOf(client, labelId)).sort();
      await deleteLabel(client, labelId);
      await emit(client, 'label.deleted', { labelId, roomIds: ids }, accountsAudience([caller.accountId]));
      return ids;
    });
    return { labelId, status: 'deleted', roomCount: roomIds.length };
  }

  /**
   * Replaces the caller's labels on a room. Every id must be a label of the caller (else 400 naming each
   * body.labelIds[i], nothing changed); the labels are held in `key share` so a concurrent label delete waits.
   */
  async setRoomLabels(caller: Caller, roomId: string, labelIds: string[]): Promise<{ roomId: string; labelIds: string[] }> {
    const onRoom = await this.write(async (client) => {
      await lockMembership(client, caller, roomId, 'no key update');
      const mine = new Set(await lockOwnedLabels(client, caller.accountId, labelIds));
      const foreign = labelIds.flatMap((id, i) =>
        mine.has(id) ? [] : [{ location: `body.labelIds[${i}]`, message: 'names no label of the caller' }],
      );
      if (foreign.length > 0) {
        throw chatError(
          400,
          'validation_failed',
          `The request is invalid: ${foreign.map((d) => `${d.location} ${d.message}`).join('; ')}`,
          foreign,
        );
      }
      const removed = await removeRoomLabelsExcept(client, caller.accountId, roomId, labelIds);
      const added = await addRoomLabels(client, caller.accountId, roomId, labelIds, this.deps.clock.now());
      const current = await roomLabelIds(client, caller.accountId, roomId);
      if (removed + added > 0)
        await emit(client, 'room.labels_changed', { roomId, labelIds: current }, accountsAudience([caller.accountId]));
      return current;
    });
    return { roomId, labelIds: onRoom };
  }

  /** Runs a write in a transaction; a name taken by another label of the account is a 409. */
  private async write<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.deps.sql, work);
    } catch (err) {
      if (isUniqueViolation(err)) throw labelErrors.nameTaken('body.name');
      throw err;
    }
  }

  private async get(db: Runner, caller: Caller, labelId: string, lock = false): Promise<LabelView> {
    const row = await labelOf(db, caller.accountId, labelId, lock);
    if (!row) throw labelErrors.notFound();
    return view(row);
  }
}
