// Conversations with customers: opened on a channel, assigned to a member (conversation.assigned), closed
// (conversation.closed) and reopened (conversation.reopened), by hand or by an inbound message. Each move that
// changes nothing (closing a closed conversation, assigning the current assignee) answers it unchanged, silently.
// One store for both conventions: the workspace API and the partner API call the same functions, so the records
// and the events are the same whichever API made the change.
import type { Partition } from '../crm/queries.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { readPool } from '../../platform/db/read-router.js';
import { newId } from '../../platform/ids.js';
import { changesOf } from '../events/changes.js';
import { withEvents, type EventDeps, type EventSink } from '../events/outbox.js';
import type { InboxErrorFactory } from './errors.js';
import { checkContact, checkMembers } from './references.js';
import {
  conversationById,
  conversationsPage,
  insertConversation,
  updateConversationAssignee,
  updateConversationStatus,
  type ConversationFilters,
  type RowPage,
} from './queries.js';
import { conversationView, type ConversationRow } from './views.js';

export type { ConversationFilters, RowPage } from './queries.js';

/** A change of a conversation: any of its assignee and its status; absent fields stay as they are. */
export interface ConversationChange {
  assignee_id?: string | null;
  status?: 'open' | 'closed';
}

/** The conversation, locked for the rest of the transaction; undefined when it is not in the partition. */
export async function lockConversation(db: Queryable, part: Partition, id: string): Promise<ConversationRow | undefined> {
  return conversationById(db, part, id, true);
}

/** Moves a conversation between open and closed, emitting conversation.closed or conversation.reopened. */
export async function setConversationStatus(
  db: Queryable,
  sink: EventSink,
  row: ConversationRow,
  to: 'open' | 'closed',
  now: Date,
): Promise<ConversationRow> {
  if (row.status === to) return row;
  const after = (await updateConversationStatus(db, row.id, to, now))!;
  const view = conversationView(after);
  sink.emit(
    to === 'closed' ? 'conversation.closed' : 'conversation.reopened',
    view,
    changesOf(conversationView(row), view, ['status', 'closed_at']),
  );
  return after;
}

async function setAssignee(
  db: Queryable,
  sink: EventSink,
  row: ConversationRow,
  assigneeId: string | null,
  now: Date,
): Promise<ConversationRow> {
  if (row.assignee_id === assigneeId) return row;
  const after = (await updateConversationAssignee(db, row.id, assigneeId, now))!;
  sink.emit('conversation.assigned', conversationView(after), { assignee_id: { from: row.assignee_id, to: assigneeId } });
  return after;
}

export class ConversationStore {
  constructor(
    private readonly deps: EventDeps,
    private readonly errors: InboxErrorFactory,
  ) {}

  /** Newest first, filtered; limit + 1 rows at most. */
  async list(part: Partition, filters: ConversationFilters, page: RowPage): Promise<ConversationRow[]> {
    const db = await readPool(this.deps);
    return conversationsPage(db, part, filters, page);
  }

  async get(part: Partition, id: string): Promise<ConversationRow> {
    const db = await readPool(this.deps);
    const row = await conversationById(db, part, id);
    if (!row) throw this.errors.conversationNotFound();
    return row;
  }

  /** Opens a conversation; the catalogue has no event for it. */
  async create(
    part: Partition,
    body: { channel: string; subject?: string | null; contact_id?: string | null; customer_handle?: string | null },
  ): Promise<ConversationRow> {
    await checkContact(this.deps.sql, this.errors, part, { field: 'body.contact_id', id: body.contact_id });
    const now = this.deps.clock.now();
    const created = await insertConversation(
      this.deps.sql,
      part,
      {
        id: newId(),
        channel: body.channel,
        subject: body.subject ?? null,
        contact_id: body.contact_id ?? null,
        customer_handle: body.customer_handle ?? null,
      },
      now,
    );
    return created!;
  }

  /**
   * Applies a change in one transaction (the caller's, when db is one): the assignee first (conversation.assigned),
   * then the status (conversation.closed or conversation.reopened). A field that already has its value emits nothing.
   */
  async change(db: Queryable, part: Partition, id: string, change: ConversationChange): Promise<ConversationRow> {
    return withEvents(this.deps, db, part, async (tx, sink, now) => {
      let row = await lockConversation(tx, part, id);
      if (!row) throw this.errors.conversationNotFound();
      if (change.assignee_id !== undefined) {
        await checkMembers(tx, this.errors, part.workspaceId, [{ field: 'body.assignee_id', id: change.assignee_id }]);
        row = await setAssignee(tx, sink, row, change.assignee_id, now);
      }
      if (change.status !== undefined) row = await setConversationStatus(tx, sink, row, change.status, now);
      return row;
    });
  }
}
