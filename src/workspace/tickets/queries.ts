// The statements of tickets: one partition's tickets with the view's columns, their comments, the writes of the
// lifecycle, and the SLA timer's reads and breach.
import type { Partition } from '../../core/crm/queries.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Position } from '../base/paging.js';
import { workspaceDb } from '../base/tables.js';
import { commentColumns, ticketColumns, type TicketRow } from './views.js';

/** The partition's tickets with the view's columns: every read of a ticket starts here. */
const ticketsOf = (part: Partition) =>
  workspaceDb
    .selectFrom('tickets')
    .select(ticketColumns)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

export function ticketById(db: Runner, part: Partition, id: string): Promise<TicketRow | undefined> {
  return firstRow(db, ticketsOf(part).where('id', '=', id));
}

/** The ticket, its row locked for the transaction. */
export function lockTicket(db: Runner, part: Partition, id: string): Promise<TicketRow | undefined> {
  return firstRow(db, ticketsOf(part).where('id', '=', id).forUpdate());
}

export interface TicketFilter {
  status?: string;
  priority?: string;
  assigneeId?: string;
  contactId?: string;
  slaBreached?: boolean;
}

/** A page of the partition's tickets matching the filter after a position, newest first. */
export function ticketPage(
  db: Runner,
  part: Partition,
  filter: TicketFilter,
  after: Position | undefined,
  limit: number,
): Promise<TicketRow[]> {
  return rows(
    db,
    ticketsOf(part)
      .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status!))
      .$if(filter.priority !== undefined, (qb) => qb.where('priority', '=', filter.priority!))
      .$if(filter.assigneeId !== undefined, (qb) => qb.where('assignee_id', '=', filter.assigneeId!))
      .$if(filter.contactId !== undefined, (qb) => qb.where('contact_id', '=', filter.contactId!))
      .$if(filter.slaBreached === true, (qb) => qb.where('sla_breached_at', 'is not', null))
      .$if(filter.slaBreached === false, (qb) => qb.where('sla_breached_at', 'is', null))
      .$if(after !== undefined, (qb) => qb.where('id', '<', after!.id))
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

export interface NewTicket {
  id: string;
  subject: string;
  description: string | null;
  priority: string;
  assigneeId: string | null;
  contactId: string | null;
  slaDueAt: Date;
  at: Date;
}

export async function insertTicket(db: Runner, part: Partition, ticket: NewTicket): Promise<TicketRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .insertInto('tickets')
      .values({
        id: ticket.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        subject: ticket.subject,
        description: ticket.description,
        priority: ticket.priority,
        status: 'open',
        assignee_id: ticket.assigneeId,
        contact_id: ticket.contactId,
        sla_due_at: ticket.slaDueAt,
        created_at: ticket.at,
        updated_at: ticket.at,
      })
      .returning(ticketColumns),
  );
  return row!;
}

/** Writes the changed columns of a ticket (by their column names) and its update time. */
export async function updateTicket(db: Runner, id: string, changes: Record<string, unknown>, at: Date): Promise<TicketRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .updateTable('tickets')
      .set({ ...changes, updated_at: at })
      .where('id', '=', id)
      .returning(ticketColumns),
  );
  return row!;
}

/** A page of a ticket's comments after a position, oldest first. */
export function commentPage(db: Runner, ticketId: string, after: Position | undefined, limit: number) {
  return rows(
    db,
    workspaceDb
      .selectFrom('ticket_comments')
      .select(commentColumns)
      .where('ticket_id', '=', ticketId)
      .$if(after !== undefined, (qb) => qb.where('id', '>', after!.id))
      .orderBy('id')
      .limit(limit),
  );
}

export interface NewComment {
  id: string;
  ticketId: string;
  body: string;
  authorId: string | null;
  internal: boolean;
  at: Date;
}

/** Inserts the comment and marks its ticket updated. */
export async function insertComment(db: Runner, part: Partition, comment: NewComment) {
  const [row] = await rows(
    db,
    workspaceDb
      .insertInto('ticket_comments')
      .values({
        id: comment.id,
        ticket_id: comment.ticketId,
        workspace_id: part.workspaceId,
        environment: part.environment,
        body: comment.body,
        author_id: comment.authorId,
        internal: comment.internal,
        created_at: comment.at,
      })
      .returning(commentColumns),
  );
  await affected(db, workspaceDb.updateTable('tickets').set({ updated_at: comment.at }).where('id', '=', comment.ticketId));
  return row!;
}

/** The workspace and environment of a ticket of any partition (the SLA timer knows only its id). */
export function ticketScope(db: Runner, ticketId: string) {
  return firstRow(db, workspaceDb.selectFrom('tickets').select(['workspace_id', 'environment']).where('id', '=', ticketId));
}

/** The ticket of any partition, its row locked for the transaction. */
export function lockTicketById(db: Runner, ticketId: string): Promise<TicketRow | undefined> {
  return firstRow(db, workspaceDb.selectFrom('tickets').select(ticketColumns).where('id', '=', ticketId).forUpdate());
}

export async function markSlaBreached(db: Runner, ticketId: string, at: Date): Promise<TicketRow> {
  const [updated] = await rows(
    db,
    workspaceDb.updateTable('tickets').set({ sla_breached_at: at }).where('id', '=', ticketId).returning(ticketColumns),
  );
  return updated!;
}

/** Up to `limit` open or pending tickets past their deadline and not yet breached, earliest deadline first. */
export async function overdueTicketIds(db: Runner, now: Date, limit: number): Promise<string[]> {
  const due = await rows(
    db,
    workspaceDb
      .selectFrom('tickets')
      .select('id')
      .where('sla_breached_at', 'is', null)
      .where('status', 'in', ['open', 'pending'])
      .where('sla_due_at', '<=', now)
      .orderBy('sla_due_at')
      .limit(limit),
  );
  return due.map((r) => r.id);
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  ticketById: (db) => ticketById(db, part, example.otherId),
  lockTicket: (db) => lockTicket(db, part, example.otherId),
  ticketPage: (db) =>
    ticketPage(
      db,
      part,
      { status: 'open', priority: 'high', assigneeId: example.id, contactId: example.otherId, slaBreached: false },
      { id: example.otherId },
      51,
    ),
  insertTicket: (db) =>
    insertTicket(db, part, {
      id: example.otherId,
      subject: example.text,
      description: null,
      priority: 'normal',
      assigneeId: null,
      contactId: null,
      slaDueAt: example.at,
      at: example.at,
    }),
  updateTicket: (db) => updateTicket(db, example.otherId, { status: 'resolved', resolved_at: example.at }, example.at),
  commentPage: (db) => commentPage(db, example.otherId, { id: example.id }, 51),
  insertComment: (db) =>
    insertComment(db, part, {
      id: example.id,
      ticketId: example.otherId,
      body: example.text,
      authorId: null,
      internal: false,
      at: example.at,
    }),
  ticketScope: (db) => ticketScope(db, example.otherId),
  lockTicketById: (db) => lockTicketById(db, example.otherId),
  markSlaBreached: (db) => markSlaBreached(db, example.otherId, example.at),
  overdueTicketIds: (db) => overdueTicketIds(db, example.at, 200),
};
