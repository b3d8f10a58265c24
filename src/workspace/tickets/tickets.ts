// Tickets: opened (ticket.created, SLA timer started), assigned (ticket.assigned), moved through open, pending,
// resolved and closed as the lifecycle allows (ticket.status_changed), commented (ticket.commented), and breached
// by their SLA timer (sla.ts). A reopened ticket that has not breached gets a fresh SLA window from the reopening.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/records.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { checkMembers } from '../base/checks.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { checkReferences } from '../crm/store.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import type { SlaTimers } from './sla.js';
import { canMove, slaDue, slaRunning } from './lifecycle.js';
import { workspaceDb } from '../base/tables.js';
import {
  commentColumns,
  commentView,
  ticketColumns,
  ticketView,
  type CommentView,
  type Priority,
  type TicketRow,
  type TicketStatus,
  type TicketView,
} from './views.js';

export const ticketsPath = '/api/v1/tickets';
const notFound = () => workspaceErrors.notFound('The ticket');

export interface TicketDeps extends EventDeps {
  sla?: Pick<SlaTimers, 'schedule'>;
}

/** The partition's tickets with the view's columns: every read of a ticket starts here. */
const ticketsOf = (part: Partition) =>
  workspaceDb
    .selectFrom('tickets')
    .select(ticketColumns)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

async function lockTicket(db: Runner, part: Partition, id: string): Promise<TicketRow | undefined> {
  return firstRow(db, ticketsOf(part).where('id', '=', id).forUpdate());
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
    const found = await rows(
      await readPool(this.deps),
      ticketsOf(part)
        .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!))
        .$if(query.priority !== undefined, (qb) => qb.where('priority', '=', query.priority!))
        .$if(query.assignee_id !== undefined, (qb) => qb.where('assignee_id', '=', query.assignee_id!))
        .$if(query.contact_id !== undefined, (qb) => qb.where('contact_id', '=', query.contact_id!))
        .$if(query.sla_breached === true, (qb) => qb.where('sla_breached_at', 'is not', null))
        .$if(query.sla_breached === false, (qb) => qb.where('sla_breached_at', 'is', null))
        .$if(after !== undefined, (qb) => qb.where('id', '<', after!.id))
        .orderBy('id', 'desc')
        .limit(limit + 1),
    );
    return pageOf(found, limit, list, ticketView);
  }

  async get(part: Partition, id: string): Promise<TicketView> {
    const db = await readPool(this.deps);
    const row = await firstRow(db, ticketsOf(part).where('id', '=', id));
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
      const [row] = await rows(
        tx,
        workspaceDb
          .insertInto('tickets')
          .values({
            id: newId(),
            workspace_id: part.workspaceId,
            environment: part.environment,
            subject: body.subject,
            description: body.description ?? null,
            priority,
            status: 'open',
            assignee_id: body.assignee_id ?? null,
            contact_id: body.contact_id ?? null,
            sla_due_at: due,
            created_at: now,
            updated_at: now,
          })
          .returning(ticketColumns),
      );
      const view = ticketView(row!);
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

      const [row] = await rows(
        tx,
        workspaceDb
          .updateTable('tickets')
          .set({ ...next, updated_at: now })
          .where('id', '=', id)
          .returning(ticketColumns),
      );
      const view = ticketView(row!);
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
    const found = await rows(
      db,
      workspaceDb
        .selectFrom('ticket_comments')
        .select(commentColumns)
        .where('ticket_id', '=', ticketId)
        .$if(after !== undefined, (qb) => qb.where('id', '>', after!.id))
        .orderBy('id')
        .limit(limit + 1),
    );
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
      const [row] = await rows(
        tx,
        workspaceDb
          .insertInto('ticket_comments')
          .values({
            id: newId(),
            ticket_id: ticketId,
            workspace_id: part.workspaceId,
            environment: part.environment,
            body: body.body,
            author_id: body.author_id ?? null,
            internal: body.internal ?? false,
            created_at: now,
          })
          .returning(commentColumns),
      );
      await affected(tx, workspaceDb.updateTable('tickets').set({ updated_at: now }).where('id', '=', ticketId));
      const view = commentView(row!);
      sink.emit('ticket.commented', view);
      return view;
    });
  }
}
