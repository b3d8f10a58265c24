// Conversations with customers: opened on a channel, assigned to a member (conversation.assigned), closed
// (conversation.closed) and reopened (conversation.reopened), by hand or by an inbound message. Each move that
// changes nothing (closing a closed conversation, assigning the current assignee) answers it unchanged, silently.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/records.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { checkMembers } from '../common/checks.js';
import { defaultLimit, Filters, pageOf, readCursor } from '../common/paging.js';
import { checkReferences } from '../crm/store.js';
import { changesOf } from '../../core/events/changes.js';
import { withEvents, type EventDeps, type EventSink } from '../../core/events/outbox.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';
import { conversationColumns, conversationView, type ConversationRow, type ConversationView } from './views.js';

export const conversationsPath = '/api/v1/conversations';
const notFound = () => workspaceErrors.notFound('The conversation');

/** The conversation, locked for the rest of the transaction; undefined when it is not in the partition. */
export async function lockConversation(db: Queryable, part: Partition, id: string): Promise<ConversationRow | undefined> {
  const { rows } = await db.query<ConversationRow>(
    `select ${conversationColumns} from inbox_conversations where id = $1 and workspace_id = $2 and environment = $3 for update`,
    [id, part.workspaceId, part.environment],
  );
  return rows[0];
}

/** Moves a conversation between open and closed, emitting conversation.closed or conversation.reopened. */
export async function setConversationStatus(db: Queryable, sink: EventSink, row: ConversationRow, to: 'open' | 'closed', now: Date): Promise<ConversationRow> {
  if (row.status === to) return row;
  const { rows } = await db.query<ConversationRow>(
    `update inbox_conversations set status = $2, closed_at = $3, updated_at = $4 where id = $1 returning ${conversationColumns}`,
    [row.id, to, to === 'closed' ? now : null, now],
  );
  const after = rows[0]!;
  const view = conversationView(after);
  sink.emit(to === 'closed' ? 'conversation.closed' : 'conversation.reopened', view, changesOf(conversationView(row), view, ['status', 'closed_at']));
  return after;
}

export class ConversationService {
  constructor(private readonly deps: EventDeps) {}

  async list(part: Partition, query: { limit?: number; cursor?: string; status?: string; channel?: string; assignee_id?: string; contact_id?: string }): Promise<Page<ConversationView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('conversations', query.cursor);
    const where = new Filters([part.workspaceId, part.environment])
      .eq('status', query.status)
      .eq('channel', query.channel)
      .eq('assignee_id', query.assignee_id)
      .eq('contact_id', query.contact_id)
      .raw('id < $?', after?.id);
    const { rows } = await db.query<ConversationRow>(
      `select ${conversationColumns} from inbox_conversations where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(limit + 1)}`,
      where.params,
    );
    return pageOf(rows, limit, 'conversations', conversationView);
  }

  async get(part: Partition, id: string): Promise<ConversationView> {
    const db = await readPool(this.deps);
    const { rows } = await db.query<ConversationRow>(
      `select ${conversationColumns} from inbox_conversations where id = $1 and workspace_id = $2 and environment = $3`,
      [id, part.workspaceId, part.environment],
    );
    if (!rows[0]) throw notFound();
    return conversationView(rows[0]);
  }

  /** Opens a conversation; the catalogue has no event for it. */
  async create(part: Partition, body: { channel: string; subject?: string | null; contact_id?: string | null; customer_handle?: string | null }): Promise<ConversationView> {
    await checkReferences(this.deps.sql, part, [{ field: 'body.contact_id', id: body.contact_id, resource: 'contacts' }]);
    const now = this.deps.clock.now();
    const { rows } = await this.deps.sql.query<ConversationRow>(
      `insert into inbox_conversations (id, workspace_id, environment, channel, subject, contact_id, customer_handle, status, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $8) returning ${conversationColumns}`,
      [newId(), part.workspaceId, part.environment, body.channel, body.subject ?? null, body.contact_id ?? null, body.customer_handle ?? null, now],
    );
    return conversationView(rows[0]!);
  }

  async assign(part: Partition, id: string, assigneeId: string | null): Promise<ConversationView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await lockConversation(tx, part, id);
      if (!before) throw notFound();
      await checkMembers(tx, part.workspaceId, [{ field: 'body.assignee_id', id: assigneeId }]);
      if (before.assignee_id === assigneeId) return conversationView(before);
      const { rows } = await tx.query<ConversationRow>(
        `update inbox_conversations set assignee_id = $2, updated_at = $3 where id = $1 returning ${conversationColumns}`,
        [id, assigneeId, now],
      );
      const view = conversationView(rows[0]!);
      sink.emit('conversation.assigned', view, { assignee_id: { from: before.assignee_id, to: assigneeId } });
      return view;
    });
  }

  async setStatus(part: Partition, id: string, to: 'open' | 'closed'): Promise<ConversationView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await lockConversation(tx, part, id);
      if (!before) throw notFound();
      return conversationView(await setConversationStatus(tx, sink, before, to, now));
    });
  }
}
