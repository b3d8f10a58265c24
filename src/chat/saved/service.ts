// Saved messages: the caller's bookmarks of messages of rooms it is a member of, each a card with an optional note
// and the origin to jump to. Saving is idempotent per message (one card, one savedId). Cards show the message as
// the caller sees it now (recalled: text null). A card ends with the caller's membership of its room (the trigger
// of migration Migration20261123000160Personal). Every change is announced to the caller's sessions only.
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid, newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { lockMembership } from '../drafts/membership.js';
import { messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import { attachThreadInfo, rootsWithReplies } from '../threads/thread-info.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { Queryable } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import {
  deleteSavedCard,
  messageRecalled,
  savedCard,
  savedCards,
  savedIdOf,
  updateSavedNote,
  upsertSavedCard,
  type CardRow,
} from './queries.js';

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

export const savedErrors = {
  notFound: () => chatErrors.notFound('Saved message', 'saved_not_found'),
  recalled: () => chatErrors.conflict('message_recalled', 'The message was recalled; it cannot be saved.'),
};

/** A note of only white space is no note. */
const noteOf = (note: string | null): string | null => (note === null || note.trim().length === 0 ? null : note);

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
    message: messageView(row as unknown as MessageRow),
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
    const c = query.cursor === undefined ? null : parseFeedCursor(query.cursor, savedList(caller.accountId));
    const found = await savedCards(this.deps.sql, caller.accountId, c, limit + 1);
    const hasMore = found.length > limit;
    const page = found.slice(0, limit);
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
    const savedId = await inTransaction(this.deps.sql, async (client) => {
      await lockMembership(client, caller, input.roomId);
      const recalled = await messageRecalled(client, input.roomId, input.messageId);
      if (recalled === undefined) throw chatErrors.notFound('Message', 'message_not_found');
      if (recalled) throw savedErrors.recalled();
      const written = await upsertSavedCard(
        client,
        { id: newId(), accountId: caller.accountId, roomId: input.roomId, messageId: input.messageId, note, at: now },
        noteGiven,
      );
      if (!written) return (await savedIdOf(client, caller.accountId, input.messageId))!;
      const audience = accountsAudience([caller.accountId]);
      if (written.inserted)
        await emit(client, 'saved.added', { savedId: written.id, roomId: input.roomId, messageId: input.messageId, note }, audience);
      else await emit(client, 'saved.updated', { savedId: written.id, roomId: input.roomId, messageId: input.messageId, note }, audience);
      return written.id;
    });
    return this.card(this.deps.sql, caller, savedId);
  }

  /** note null (or only white space) clears the note; an absent note changes nothing. */
  async updateNote(caller: Caller, savedId: string, input: { note?: string | null } | undefined): Promise<SavedCardView> {
    const id = this.checkId(savedId);
    if (input?.note === undefined) return this.card(this.deps.sql, caller, id);
    const note = noteOf(input.note);
    await inTransaction(this.deps.sql, async (client) => {
      const row = await updateSavedNote(client, caller.accountId, id, note, this.deps.clock.now());
      if (!row) throw savedErrors.notFound();
      if (!row.changed) return;
      await emit(
        client,
        'saved.updated',
        { savedId: id, roomId: row.room_id!, messageId: row.message_id!, note },
        accountsAudience([caller.accountId]),
      );
    });
    return this.card(this.deps.sql, caller, id);
  }

  async unsave(caller: Caller, savedId: string): Promise<{ savedId: string; status: 'deleted' }> {
    const id = this.checkId(savedId);
    await inTransaction(this.deps.sql, async (client) => {
      const removed = await deleteSavedCard(client, caller.accountId, id);
      if (!removed) throw savedErrors.notFound();
      await emit(
        client,
        'saved.removed',
        { savedId: id, roomId: removed.room_id, messageId: removed.message_id },
        accountsAudience([caller.accountId]),
      );
    });
    return { savedId: id, status: 'deleted' };
  }

  /** The service issues uuids only; any other string names no card (and never reaches SQL as a malformed value). */
  private checkId(savedId: string): string {
    if (!isUuid(savedId)) throw savedErrors.notFound();
    return savedId.toLowerCase();
  }

  private async card(db: Queryable, caller: Caller, savedId: string): Promise<SavedCardView> {
    const row = await savedCard(db, caller.accountId, savedId);
    if (!row) throw savedErrors.notFound();
    return (await cardViews(db, caller.accountId, [row]))[0]!;
  }
}
