// Tickets: opened (ticket.created, SLA timer started), assigned (ticket.assigned), moved through open, pending,
// resolved and closed as the lifecycle allows (ticket.status_changed), commented (ticket.commented), and breached
// by their SLA timer (sla.ts). A reopened ticket that has not breached gets a fresh SLA window from the reopening.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/queries.js';
import { newId } from '../../platform/ids.js';
import { checkMembers } from '../base/checks.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { checkReferences } from '../crm/references.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import type { SlaTimers } from './sla.js';
import { canMove, slaDue, slaRunning } from './lifecycle.js';
import { commentPage, insertComment, insertTicket, lockTicket, ticketById, ticketPage, updateTicket } from './queries.js';
import { commentView, ticketView, type CommentView, type Priority, type TicketStatus, type TicketView } from './views.js';

export const ticketsPath = '/api/v1/tickets';
const notFound = () => workspaceErrors.notFound('The ticket');

export interface TicketDeps extends EventDeps {
  sla?: Pick<SlaTimers, 'schedule'>;
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
    query: {
      limit?: number;
      cursor?: string;
      status?: string;
      priority?: string;
      assignee_id?: string;
      contact_id?: string;
      sla_breached?: boolean;
    },
  ): Promise<Page<TicketView>> {
    const limit = query.limit ?? defaultLimit;
    const list = listIn(part, 'tickets', query);
    const after = readCursor(list, query.cursor);
    const filter = {
      status: query.status,
      priority: query.priority,
      assigneeId: query.assignee_id,
      contactId: query.contact_id,
      slaBreached: query.sla_breached,
    };
    const found = await ticketPage(await readPool(this.deps), part, filter, after, limit + 1);
    return pageOf(found, limit, list, ticketView);
  }

  async get(part: Partition, id: string): Promise<TicketView> {
    const db = await readPool(this.deps);
    const row = await ticketById(db, part, id);
    if (!row) throw notFound();
    return ticketView(row);
  }

  async create(
    part: Partition,
    body: { subject: string; description?: string | null; priority?: Priority; assignee_id?: string | null; contact_id?: string | null },
  ): Promise<TicketView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      await checkMembers(tx, part.workspaceId, [{ field: 'body.assignee_id', id: body.assignee_id }]);
      await checkReferences(tx, part, [{ field: 'body.contact_id', id: body.contact_id, resource: 'contacts' }]);
      const priority = body.priority ?? 'normal';
      const due = slaDue(now, priority);
      const row = await insertTicket(tx, part, {
        id: newId(),
        subject: body.subject,
        description: body.description ?? null,
        priority,
        assigneeId: body.assignee_id ?? null,
        contactId: body.contact_id ?? null,
        slaDueAt: due,
        at: now,
      });
      const view = ticketView(row);
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
      for (const f of ['subject', 'description', 'priority', 'assignee_id'] as const)
        if (body[f] !== undefined && body[f] !== before[f]) next[f] = body[f];
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

      const view = ticketView(await updateTicket(tx, id, next, now));
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
    const list = listIn(part, 'ticket_comments', { ticket_id: ticketId });
    const after = readCursor(list, query.cursor);
    const found = await commentPage(db, ticketId, after, limit + 1);
    return pageOf(found, limit, list, commentView);
  }

  async comment(
    part: Partition,
    ticketId: string,
    body: { body: string; author_id?: string | null; internal?: boolean },
  ): Promise<CommentView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const ticket = await lockTicket(tx, part, ticketId);
      if (!ticket) throw notFound();
      if (ticket.status === 'closed') throw workspaceErrors.conflict('The ticket is closed; a closed ticket takes no comments.');
      await checkMembers(tx, part.workspaceId, [{ field: 'body.author_id', id: body.author_id }]);
      const row = await insertComment(tx, part, {
        id: newId(),
        ticketId,
        body: body.body,
        authorId: body.author_id ?? null,
        internal: body.internal ?? false,
        at: now,
      });
      const view = commentView(row);
      sink.emit('ticket.commented', view);
      return view;
    });
  }
}
