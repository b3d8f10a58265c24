// Saved messages: the caller's bookmarks of messages of rooms it is a member of, each a card with an optional note
// and the origin to jump to. Saving is idempotent per message (one card, one savedId). Cards show the message as
// the caller sees it now (recalled: text null). A card ends with the caller's membership of its room (the trigger
// of migration Migration20261123000160Personal). Every change is announced to the caller's sessions only.
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid, newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { lockMembership } from '../drafts/membership.js';
import { hiddenForMeColumn, messageColumnsOf, messageView, type MessageRow, type MessageView } from '../messages/views.js';
import { attachThreadInfo, replyCountColumn, rootsWithReplies } from '../threads/thread-info.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { Queryable } from '../rooms/membership.js';
import type { Page } from '../rooms/service.js';

export interface SavedCardView {
  savedId: string;
  message: MessageView;
  note: string | null;
  savedAt: string;
  updatedAt: string;
  origin: { roomId: string; messageId: string };
}

export interface SaveInput {
  roomId: string;
  messageId: string;
  note?: string | null;
}

interface CardRow extends MessageRow {
  saved_id: string;
  note: string | null;
  saved_at: Date;
  saved_updated_at: Date;
}

export const savedErrors = {
  notFound: () => chatErrors.notFound('Saved message', 'saved_not_found'),
  recalled: () => chatErrors.conflict('message_recalled', 'The message was recalled; it cannot be saved.'),
};

/** A note of only white space is no note. */
const noteOf = (note: string | null): string | null => (note === null || note.trim().length === 0 ? null : note);

/** Cards of the caller ($1) whose room it is still a member of, with the message as the caller sees it. */
const cardSelect = `
  select s.id as saved_id, s.note, s.saved_at, s.updated_at as saved_updated_at, ${messageColumnsOf('x')}, ${replyCountColumn('x')}, ${hiddenForMeColumn('$1', 'x')}
    from saved_messages s
    join messages x on x.id = s.message_id
    join room_members m on m.room_id = s.room_id and m.account_id = s.account_id
   where s.account_id = $1`;

/** The cards' views, roots with replies carrying their thread (one batched query). */
async function cardViews(db: Queryable, accountId: string, rows: CardRow[]): Promise<SavedCardView[]> {
  const cards = rows.map(cardView);
  await attachThreadInfo(
    db,
    accountId,
    cards.map((c) => c.message),
    rootsWithReplies(rows),
  );
  return cards;
}

function cardView(row: CardRow): SavedCardView {
  return {
    savedId: row.saved_id,
    message: messageView(row),
    note: row.note,
    savedAt: row.saved_at.toISOString(),
    updatedAt: row.saved_updated_at.toISOString(),
    origin: { roomId: row.room_id, messageId: row.id },
  };
}

const savedList = (accountId: string) => `saved:${accountId}`;

function parseFeedCursor(raw: string, list: string): { at: string; id: string } {
  const c = decodeCursor(raw, list);
  const at = c ? cursorInstant(c.a) : null;
  const id = c ? cursorUuid(c.i) : null;
  if (!at || !id) throw chatErrors.invalidCursor('query.cursor');
  return { at, id };
}

export class SavedService {
  constructor(private readonly deps: ChatDeps) {}

  /** Newest saved first; keyset (saved_at, id) over the index saved_messages_feed. */
  async list(caller: Caller, query: { limit?: number; cursor?: string }): Promise<Page<SavedCardView>> {
    const limit = query.limit ?? 50;
    const params: unknown[] = [caller.accountId, limit + 1];
    let after = '';
    if (query.cursor !== undefined) {
      const c = parseFeedCursor(query.cursor, savedList(caller.accountId));
      params.push(c.at, c.id);
      after = ' and (s.saved_at, s.id) < ($3::timestamptz, $4::text)';
    }
    const { rows } = await this.deps.sql.query<CardRow>(`${cardSelect}${after} order by s.saved_at desc, s.id desc limit $2`, params);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await cardViews(this.deps.sql, caller.accountId, page),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ a: last.saved_at.toISOString(), i: last.saved_id }, savedList(caller.accountId)) : null,
    };
  }

  /**
   * Idempotent per message: a repeat answers the same card; a note given with it replaces the note (null clears
   * it), an absent note keeps the card's. A recalled message cannot be saved; one the caller hid can.
   */
  async save(caller: Caller, input: SaveInput): Promise<SavedCardView> {
    const noteGiven = input.note !== undefined;
    const note = noteOf(input.note ?? null);
    const now = this.deps.clock.now();
    const { savedId, changed } = await inTransaction(this.deps.sql, async (client) => {
      await lockMembership(client, caller, input.roomId);
      // key share: a recall of the message waits for this save, or wins and is seen here.
      const { rows: found } = await client.query<{ recalled: boolean }>(
        'select recalled_at is not null as recalled from messages where room_id = $1 and id = $2 for key share',
        [input.roomId, input.messageId],
      );
      if (!found[0]) throw chatErrors.notFound('Message', 'message_not_found');
      if (found[0].recalled) throw savedErrors.recalled();
      const { rows } = await client.query<{ id: string; inserted: boolean }>(
        `insert into saved_messages (id, account_id, room_id, message_id, note, saved_at, updated_at) values ($1, $2, $3, $4, $5, $6, $6)
         on conflict (account_id, message_id) do update set note = excluded.note, updated_at = excluded.updated_at
          where $7::boolean and saved_messages.note is distinct from excluded.note
         returning id, xmax = 0 as inserted`,
        [newId(), caller.accountId, input.roomId, input.messageId, note, now, noteGiven],
      );
      const written = rows[0];
      const audience = accountsAudience([caller.accountId]);
      if (!written) {
        const existing = await client.query<{ id: string }>('select id from saved_messages where account_id = $1 and message_id = $2', [
          caller.accountId,
          input.messageId,
        ]);
        return { savedId: existing.rows[0]!.id, changed: false };
      }
      if (written.inserted)
        await emit(client, 'saved.added', { savedId: written.id, roomId: input.roomId, messageId: input.messageId, note }, audience);
      else await emit(client, 'saved.updated', { savedId: written.id, roomId: input.roomId, messageId: input.messageId, note }, audience);
      return { savedId: written.id, changed: true };
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return this.card(this.deps.sql, caller, savedId);
  }

  /** note null (or only white space) clears the note; an absent note changes nothing. */
  async updateNote(caller: Caller, savedId: string, input: { note?: string | null } | undefined): Promise<SavedCardView> {
    const id = this.checkId(savedId);
    if (input?.note === undefined) return this.card(this.deps.sql, caller, id);
    const note = noteOf(input.note);
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const { rows } = await client.query<{ room_id: string; message_id: string; changed: boolean }>(
        `with card as (select id, note from saved_messages where id = $1 and account_id = $2 for update),
              moved as (update saved_messages s set note = $3, updated_at = $4 from card
                         where s.id = card.id and card.note is distinct from $3 returning s.room_id, s.message_id)
         select (select room_id from moved) as room_id, (select message_id from moved) as message_id,
                exists (select 1 from moved) as changed
          where exists (select 1 from card)`,
        [id, caller.accountId, note, this.deps.clock.now()],
      );
      const row = rows[0];
      if (!row) throw savedErrors.notFound();
      if (!row.changed) return false;
      await emit(
        client,
        'saved.updated',
        { savedId: id, roomId: row.room_id, messageId: row.message_id, note },
        accountsAudience([caller.accountId]),
      );
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return this.card(this.deps.sql, caller, id);
  }

  async unsave(caller: Caller, savedId: string): Promise<{ savedId: string; status: 'deleted' }> {
    const id = this.checkId(savedId);
    await inTransaction(this.deps.sql, async (client) => {
      const { rows } = await client.query<{ room_id: string; message_id: string }>(
        'delete from saved_messages where id = $1 and account_id = $2 returning room_id, message_id',
        [id, caller.accountId],
      );
      if (!rows[0]) throw savedErrors.notFound();
      await emit(
        client,
        'saved.removed',
        { savedId: id, roomId: rows[0].room_id, messageId: rows[0].message_id },
        accountsAudience([caller.accountId]),
      );
    });
    this.deps.queues.requestOutboxDrain();
    return { savedId: id, status: 'deleted' };
  }

  /** The service issues uuids only; any other string names no card (and never reaches SQL as a malformed value). */
  private checkId(savedId: string): string {
    if (!isUuid(savedId)) throw savedErrors.notFound();
    return savedId.toLowerCase();
  }

  private async card(db: Queryable, caller: Caller, savedId: string): Promise<SavedCardView> {
    const { rows } = await db.query<CardRow>(`${cardSelect} and s.id = $2`, [caller.accountId, savedId]);
    if (!rows[0]) throw savedErrors.notFound();
    return (await cardViews(db, caller.accountId, [rows[0]]))[0]!;
  }
}
