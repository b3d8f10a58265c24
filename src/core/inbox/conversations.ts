// Conversations with customers: opened on a channel, assigned to a member (conversation.assigned), closed
// (conversation.closed) and reopened (conversation.reopened), by hand or by an inbound message. Each move that
// changes nothing (closing a closed conversation, assigning the current assignee) answers it unchanged, silently.
// One store for both conventions: the workspace API and the partner API call the same functions, so the records
// and the events are the same whichever API made the change.
import type { Partition } from '../crm/records.js';
import { Filters } from '../../platform/db/filters.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { readPool } from '../../platform/db/read-router.js';
import { newId } from '../../platform/ids.js';
import { changesOf } from '../events/changes.js';
import { withEvents, type EventDeps, type EventSink } from '../events/outbox.js';
import type { InboxErrorFactory } from './errors.js';
import { checkContact, checkMembers } from './references.js';
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

/** The conversation, locked for the rest of the transaction; undefined when it is not in the partition. */
export async function lockConversation(db: Queryable, part: Partition, id: string): Promise<ConversationRow | undefined> {
  const { rows } = await db.query<ConversationRow>(
    `select ${conversationColumns} from inbox_conversations where id = $1 and workspace_id = $2 and environment = $3 for update`,
    [id, part.workspaceId, part.environment],
  );
  return rows[0];
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
  const { rows } = await db.query<ConversationRow>(
    `update inbox_conversations set status = $2, closed_at = $3, updated_at = $4 where id = $1 returning ${conversationColumns}`,
    [row.id, to, to === 'closed' ? now : null, now],
  );
  const after = rows[0]!;
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
  const { rows } = await db.query<ConversationRow>(
    `update inbox_conversations set assignee_id = $2, updated_at = $3 where id = $1 returning ${conversationColumns}`,
    [row.id, assigneeId, now],
  );
  const after = rows[0]!;
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
    const where = new Filters([part.workspaceId, part.environment])
      .eq('status', filters.status)
      .eq('channel', filters.channel)
      .eq('assignee_id', filters.assignee_id)
      .eq('contact_id', filters.contact_id)
      .raw('id < $?', page.beforeId);
    const { rows } = await db.query<ConversationRow>(
      `select ${conversationColumns} from inbox_conversations where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(page.limit + 1)}`,
      where.params,
    );
    return rows;
  }

  async get(part: Partition, id: string): Promise<ConversationRow> {
    const db = await readPool(this.deps);
    const { rows } = await db.query<ConversationRow>(
      `select ${conversationColumns} from inbox_conversations where id = $1 and workspace_id = $2 and environment = $3`,
      [id, part.workspaceId, part.environment],
    );
    if (!rows[0]) throw this.errors.conversationNotFound();
    return rows[0];
  }

  /** Opens a conversation; the catalogue has no event for it. */
  async create(
    part: Partition,
    body: { channel: string; subject?: string | null; contact_id?: string | null; customer_handle?: string | null },
  ): Promise<ConversationRow> {
    await checkContact(this.deps.sql, this.errors, part, { field: 'body.contact_id', id: body.contact_id });
    const now = this.deps.clock.now();
    const { rows } = await this.deps.sql.query<ConversationRow>(
      `insert into inbox_conversations (id, workspace_id, environment, channel, subject, contact_id, customer_handle, status, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $8) returning ${conversationColumns}`,
      [
        newId(),
        part.workspaceId,
        part.environment,
        body.channel,
        body.subject ?? null,
        body.contact_id ?? null,
        body.customer_handle ?? null,
        now,
      ],
    );
    return rows[0]!;
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
