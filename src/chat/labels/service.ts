// Personal labels: each account's own, invisible to anyone else (another account's label is 404 like an unknown
// one). A label is put on rooms the owner is a member of; roomCount counts them exactly, because the rows go when
// the label, the room or the owner's membership goes. Every change is announced to the owner's sessions only.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatError, chatErrors } from '../errors.js';
import { lockMembership } from '../drafts/membership.js';
import { accountsAudience, emit } from '../rooms/events.js';
import type { Queryable } from '../rooms/membership.js';

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

interface LabelRow {
  id: string;
  owner_id: string;
  name: string;
  color: string;
  room_count: number;
  created_at: Date;
  updated_at: Date;
}

export const labelErrors = {
  notFound: () => chatErrors.notFound('Label', 'label_not_found'),
  nameTaken: (location: string) =>
    chatError(409, 'label_name_taken', 'The caller already has a label of this name (letter case ignored).', [{ location, message: 'is the name of another label of the caller' }]),
  limit: () => chatErrors.conflict('label_limit_reached', `An account holds at most ${labelsPerAccountMax} labels; delete one first.`),
};

const labelSelect = `
  select l.id, l.owner_id, l.name, l.color, l.created_at, l.updated_at,
         (select count(*)::int from room_labels rl where rl.label_id = l.id) as room_count
    from labels l`;

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
    const { rows } = await this.deps.sql.query<LabelRow>(`${labelSelect} where l.owner_id = $1 order by lower(l.name), l.id`, [caller.accountId]);
    return rows.map(view);
  }

  async create(caller: Caller, input: Required<LabelInput>): Promise<LabelView> {
    const name = input.name.trim();
    const color = input.color.toUpperCase();
    const id = newId();
    const now = this.deps.clock.now();
    await this.write(async (client) => {
      // One create at a time per account, so the count below cannot be passed by a concurrent create.
      await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`labels:${caller.accountId}`]);
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from labels where owner_id = $1', [caller.accountId]);
      if (rows[0]!.n >= labelsPerAccountMax) throw labelErrors.limit();
      await client.query(
        'insert into labels (id, owner_id, name, color, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)',
        [id, caller.accountId, name, color, now],
      );
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
      if (Object.keys(changes).length === 0) return false;
      await client.query('update labels set name = $2, color = $3, updated_at = $4 where id = $1', [
        labelId,
        changes.name ?? current.name,
        changes.color ?? current.color,
        this.deps.clock.now(),
      ]);
      await emit(client, 'label.updated', { labelId, changes }, accountsAudience([caller.accountId]));
      return true;
    });
    return this.get(this.deps.sql, caller, labelId);
  }

  /** Removes the label from every room it is on (the rows cascade) in the same transaction. */
  async delete(caller: Caller, labelId: string): Promise<{ labelId: string; status: 'deleted'; roomCount: number }> {
    const roomIds = await this.write(async (client) => {
      await this.get(client, caller, labelId, true);
      const { rows } = await client.query<{ room_id: string }>('delete from room_labels where label_id = $1 returning room_id', [labelId]);
      await client.query('delete from labels where id = $1', [labelId]);
      const ids = rows.map((r) => r.room_id).sort();
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
    const result = await this.write(async (client) => {
      await lockMembership(client, caller, roomId, 'no key update');
      const { rows } = await client.query<{ id: string }>('select id from labels where owner_id = $1 and id = any($2::uuid[]) for key share', [
        caller.accountId,
        labelIds,
      ]);
      const mine = new Set(rows.map((r) => r.id));
      const foreign = labelIds.flatMap((id, i) => (mine.has(id) ? [] : [{ location: `body.labelIds[${i}]`, message: 'names no label of the caller' }]));
      if (foreign.length > 0) {
        throw chatError(400, 'validation_failed', `The request is invalid: ${foreign.map((d) => `${d.location} ${d.message}`).join('; ')}`, foreign);
      }
      const removed = await client.query(
        'delete from room_labels where account_id = $1 and room_id = $2 and not (label_id = any($3::uuid[]))',
        [caller.accountId, roomId, labelIds],
      );
      const added = await client.query(
        `insert into room_labels (label_id, room_id, account_id, created_at) select unnest($3::uuid[]), $2, $1, $4 on conflict do nothing`,
        [caller.accountId, roomId, labelIds, this.deps.clock.now()],
      );
      const current = await roomLabelIds(client, caller.accountId, roomId);
      const changed = (removed.rowCount ?? 0) + (added.rowCount ?? 0) > 0;
      if (changed) await emit(client, 'room.labels_changed', { roomId, labelIds: current }, accountsAudience([caller.accountId]));
      return { changed, current };
    });
    return { roomId, labelIds: result.current };
  }

  /** Runs a write; the drain is requested after the commit (an unchanged call writes no event, and a drain finds none). */
  private async write<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    try {
      const result = await inTransaction(this.deps.sql, work);
      this.deps.queues.requestOutboxDrain();
      return result;
    } catch (err) {
      if (isUniqueViolation(err)) throw labelErrors.nameTaken('body.name');
      throw err;
    }
  }

  private async get(db: Queryable, caller: Caller, labelId: string, lock = false): Promise<LabelView> {
    const { rows } = await db.query<LabelRow>(`${labelSelect} where l.id = $1 and l.owner_id = $2${lock ? ' for update of l' : ''}`, [labelId, caller.accountId]);
    if (!rows[0]) throw labelErrors.notFound();
    return view(rows[0]);
  }
}

/** The caller's label ids on a room, by label name. */
export async function roomLabelIds(db: Queryable, accountId: string, roomId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `select l.id from room_labels rl join labels l on l.id = rl.label_id
      where rl.account_id = $1 and rl.room_id = $2 order by lower(l.name), l.id`,
    [accountId, roomId],
  );
  return rows.map((r) => r.id);
}
