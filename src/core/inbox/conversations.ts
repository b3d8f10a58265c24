// Conversations with customers: opened on a channel, assigned to a member (conversation.assigned), closed
// (conversation.closed) and reopened (conversation.reopened), by hand or by an inbound message. Each move that
// changes nothing (closing a closed conversation, assigning the current assignee) answers it unchanged, silently.
// One store for both conventions: the workspace API and the partner API call the same functions, so the records
// and the events are the same whichever API made the change.
import type { Partition } from '../crm/records.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { readPool } from '../../platform/db/read-router.js';
import { firstRow, rows } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { changesOf } from '../events/changes.js';
import { withEvents, type EventDeps, type EventSink } from '../events/outbox.js';
import type { InboxErrorFactory } from './errors.js';
import { checkContact, checkMembers } from './references.js';
import { coreDb } from '../tables.js';
import { conversationColumns, conversationView, type ConversationRow } from './views.js';

export interface ConversationFilters {
  status?: string;
  channel?: string;
  assignee_id?: string;
  contact_id?: string;
}

/** A page request: up to limit + 1 rows older (smaller id) than beforeId; the extra row says that more follow. */
export interface RowPage {
  limit: number;
  beforeId?: string;
}

/** A change of a conversation: any of its assignee and its status; absent fields stay as they are. */
export interface ConversationChange {
  assignee_id?: string | null;
  status?: 'open' | 'closed';
}

/** The partition's conversations with the view's columns: every read of a conversation starts here. */
const conversationsOf = (part: Partition) =>
  coreDb
    .selectFrom('inbox_conversations')
    .select(conversationColumns)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** The conversation, locked for the rest of the transaction; undefined when it is not in the partition. */
export async function lockConversation(db: Queryable, part: Partition, id: string): Promise<ConversationRow | undefined> {
  return firstRow(db, conversationsOf(part).where('id', '=', id).forUpdate());
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
  const after = (await firstRow(
    db,
    coreDb
      .updateTable('inbox_conversations')
      .set({ status: to, closed_at: to === 'closed' ? now : null, updated_at: now })
      .where('id', '=', row.id)
      .returning(conversationColumns),
  ))!;
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
  const after = (await firstRow(
    db,
    coreDb
      .updateTable('inbox_conversations')
      .set({ assignee_id: assigneeId, updated_at: now })
      .where('id', '=', row.id)
      .returning(conversationColumns),
  ))!;
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
    return rows(
      db,
      conversationsOf(part)
        .$if(filters.status !== undefined, (qb) => qb.where('status', '=', filters.status!))
        .$if(filters.channel !== undefined, (qb) => qb.where('channel', '=', filters.channel!))
        .$if(filters.assignee_id !== undefined, (qb) => qb.where('assignee_id', '=', filters.assignee_id!))
        .$if(filters.contact_id !== undefined, (qb) => qb.where('contact_id', '=', filters.contact_id!))
        .$if(page.beforeId !== undefined, (qb) => qb.where('id', '<', page.beforeId!))
        .orderBy('id', 'desc')
        .limit(page.limit + 1),
    );
  }

  async get(part: Partition, id: string): Promise<ConversationRow> {
    const db = await readPool(this.deps);
    const row = await firstRow(db, conversationsOf(part).where('id', '=', id));
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
    const created = await firstRow(
      this.deps.sql,
      coreDb
        .insertInto('inbox_conversations')
        .values({
          id: newId(),
          workspace_id: part.workspaceId,
          environment: part.environment,
          channel: body.channel,
          subject: body.subject ?? null,
          contact_id: body.contact_id ?? null,
          customer_handle: body.customer_handle ?? null,
          status: 'open',
          created_at: now,
          updated_at: now,
        })
        .returning(conversationColumns),
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
