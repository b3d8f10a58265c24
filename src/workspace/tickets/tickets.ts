// Tickets: opened (ticket.created, SLA timer started), assigned (ticket.assigned), moved through open, pending,
// resolved and closed as the lifecycle allows (ticket.status_changed), commented (ticket.commented), and breached
// by their SLA timer (sla.ts). A reopened ticket that has not breached gets a fresh SLA window from the reopening.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/records.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { checkMembers } from '../common/checks.js';
import { Filters } from '../../platform/db/filters.js';
import { defaultLimit, pageOf, readCursor } from '../common/paging.js';
import { checkReferences } from '../crm/store.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';
import type { SlaTimers } from './sla.js';
import { canMove, slaDue, slaRunning } from './lifecycle.js';
import { commentColumns, commentView, ticketColumns, ticketView, type CommentRow, type CommentView, type Priority, type TicketRow, type TicketStatus, type TicketView } from './views.js';

export const ticketsPath = '/api/v1/tickets';
const notFound = () => workspaceErrors.notFound('The ticket');

export interface TicketDeps extends EventDeps {
  sla?: Pick<SlaTimers, 'schedule'>;
}

async function lockTicket(db: Queryable, part: Partition, id: string): Promise<TicketRow | undefined> {
  const { rows } = await db.query<TicketRow>(`select ${ticketColumns} from tickets where id = $1 and workspace_id = $2 and environment = $3 for update`, [
    id,
    part.workspaceId,
    part.environment,
  ]);
  return rows[0];
}

export interface TicketChanges {
  subject?: string;
  description?: string | null;
  priority?: Priority;
  assignee_id?: string | null;
  status?: TicketStatus;
}

export class TicketService {
  constructor(private readonly deps: TicketDeps) {}

  async list(
    part: Partition,
    query: { limit?: number; cursor?: string; status?: string; priority?: string; assignee_id?: string; contact_id?: string; sla_breached?: boolean },
  ): Promise<Page<TicketView>> {
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('tickets', query.cursor);
    const where = new Filters([part.workspaceId, part.environment])
      .eq('status', query.status)
      .eq('priority', query.priority)
      .eq('assignee_id', query.assignee_id)
      .eq('contact_id', query.contact_id)
      .when(query.sla_breached === true, 'sla_breached_at is not null')
      .when(query.sla_breached === false, 'sla_breached_at is null')
      .raw('id < $?', after?.id);
    const { rows } = await (await readPool(this.deps)).query<TicketRow>(
      `select ${ticketColumns} from tickets where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(limit + 1)}`,
      where.params,
    );
    return pageOf(rows, limit, 'tickets', ticketView);
  }

  async get(part: Partition, id: string): Promise<TicketView> {
    const db = await readPool(this.deps);
    const { rows } = await db.query<TicketRow>(`select ${ticketColumns} from tickets where id = $1 and workspace_id = $2 and environment = $3`, [
      id,
      part.workspaceId,
      part.environment,
    ]);
    if (!rows[0]) throw notFound();
    return ticketView(rows[0]);
  }

  async create(part: Partition, body: { subject: string; description?: string | null; priority?: Priority; assignee_id?: string | null; contact_id?: string | null }): Promise<TicketView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      await checkMembers(tx, part.workspaceId, [{ field: 'body.assignee_id', id: body.assignee_id }]);
      await checkReferences(tx, part, [{ field: 'body.contact_id', id: body.contact_id, resource: 'contacts' }]);
      const priority = body.priority ?? 'normal';
      const due = slaDue(now, priority);
      const { rows } = await tx.query<TicketRow>(
        `insert into tickets (id, workspace_id, environment, subject, description, priority, status, assignee_id, contact_id, sla_due_at, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9, $10, $10) returning ${ticketColumns}`,
        [newId(), part.workspaceId, part.environment, body.subject, body.description ?? null, priority, body.assignee_id ?? null, body.contact_id ?? null, due, now],
      );
      const view = ticketView(rows[0]!);
      sink.emit('ticket.created', view);
      sink.afterCommit(() => this.deps.sla?.schedule(view.id, due));
      return view;
    });
  }

  async update(part: Partition, id: string, body: TicketChanges): Promise<TicketView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await lockTicket(tx, part, id);
      if (!before) throw notFound();
      const from = before.status as TicketStatus;
      const to = body.status ?? from;
      if (to !== from && !canMove(from, to)) throw workspaceErrors.conflict(`A ${from} ticket cannot become ${to}.`);
      await checkMembers(tx, part.workspaceId, [{ field: 'body.assignee_id', id: body.assignee_id }]);

      const next: Record<string, unknown> = {};
      for (const f of ['subject', 'description', 'priority', 'assignee_id'] as const) if (body[f] !== undefined && body[f] !== before[f]) next[f] = body[f];
      if (to !== from) {
        next.status = to;
        if (to === 'resolved') next.resolved_at = now;
        if (to === 'closed') next.closed_at = now;
        if (to === 'open' && from === 'resolved') next.resolved_at = null;
      }
      // The deadline: the new priority's SLA from creation, or a fresh window from a reopening.
      const priority = (next.priority ?? before.priority) as Priority;
      const reopened = !slaRunning(from) && slaRunning(to);
      let due = before.sla_due_at;
      if (!before.sla_breached_at && (reopened || next.priority !== undefined)) due = slaDue(reopened ? now : before.created_at, priority);
      if (due.getTime() !== before.sla_due_at.getTime()) next.sla_due_at = due;
      if (Object.keys(next).length === 0) return ticketView(before);

      const fields = Object.keys(next);
      const { rows } = await tx.query<TicketRow>(
        `update tickets set ${fields.map((f, i) => `${f} = $${i + 2}`).join(', ')}, updated_at = $${fields.length + 2} where id = $1 returning ${ticketColumns}`,
        [id, ...fields.map((f) => next[f]), now],
      );
      const view = ticketView(rows[0]!);
      if ('assignee_id' in next) sink.emit('ticket.assigned', view, { assignee_id: { from: before.assignee_id, to: view.assignee_id } });
      if ('status' in next) sink.emit('ticket.status_changed', view, { status: { from, to } });
      if (next.sla_due_at && slaRunning(to)) sink.afterCommit(() => this.deps.sla?.schedule(id, due));
      return view;
    });
  }

  async listComments(part: Partition, ticketId: string, query: { limit?: number; cursor?: string }): Promise<Page<CommentView>> {
    const db = await readPool(this.deps);
    await this.get(part, ticketId);
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('ticket_comments', query.cursor);
    const where = new Filters([ticketId]).raw('id > $?', after?.id);
    const { rows } = await db.query<CommentRow>(
      `select ${commentColumns} from ticket_comments where ticket_id = $1${where.sql()} order by id limit ${where.push(limit + 1)}`,
      where.params,
    );
    return pageOf(rows, limit, 'ticket_comments', commentView);
  }

  async comment(part: Partition, ticketId: string, body: { body: string; author_id?: string | null; internal?: boolean }): Promise<CommentView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const ticket = await lockTicket(tx, part, ticketId);
      if (!ticket) throw notFound();
      if (ticket.status === 'closed') throw workspaceErrors.conflict('The ticket is closed; a closed ticket takes no comments.');
      await checkMembers(tx, part.workspaceId, [{ field: 'body.author_id', id: body.author_id }]);
      const { rows } = await tx.query<CommentRow>(
        `insert into ticket_comments (id, ticket_id, workspace_id, environment, body, author_id, internal, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${commentColumns}`,
        [newId(), ticketId, part.workspaceId, part.environment, body.body, body.author_id ?? null, body.internal ?? false, now],
      );
      await tx.query('update tickets set updated_at = $2 where id = $1', [ticketId, now]);
      const view = commentView(rows[0]!);
      sink.emit('ticket.commented', view);
      return view;
    });
  }
}
