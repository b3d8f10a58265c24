import type { Selectable } from 'kysely';
import type { components } from '../../../generated/types/workspace.js';
import type { WorkspaceTables } from '../base/tables.js';

type Schemas = components['schemas'];
export type TicketView = Schemas['Tickets.Ticket'];
export type CommentView = Schemas['Tickets.Comment'];
export type TicketStatus = TicketView['status'];
export type Priority = TicketView['priority'];

export const ticketColumns = [
  'id',
  'workspace_id',
  'environment',
  'subject',
  'description',
  'priority',
  'status',
  'assignee_id',
  'contact_id',
  'sla_due_at',
  'sla_breached_at',
  'resolved_at',
  'closed_at',
  'created_at',
  'updated_at',
] as const;
export type TicketRow = Pick<Selectable<WorkspaceTables['tickets']>, (typeof ticketColumns)[number]>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function ticketView(r: TicketRow): TicketView {
  return {
    id: r.id,
    subject: r.subject,
    description: r.description,
    priority: r.priority as Priority,
    status: r.status as TicketStatus,
    assignee_id: r.assignee_id,
    contact_id: r.contact_id,
    sla_due_at: r.sla_due_at.toISOString(),
    sla_breached_at: iso(r.sla_breached_at),
    resolved_at: iso(r.resolved_at),
    closed_at: iso(r.closed_at),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export const commentColumns = ['id', 'ticket_id', 'body', 'author_id', 'internal', 'created_at'] as const;
export type CommentRow = Pick<Selectable<WorkspaceTables['ticket_comments']>, (typeof commentColumns)[number]>;

export function commentView(r: CommentRow): CommentView {
  return {
    id: r.id,
    ticket_id: r.ticket_id,
    body: r.body,
    author_id: r.author_id,
    internal: r.internal,
    created_at: r.created_at.toISOString(),
  };
}
