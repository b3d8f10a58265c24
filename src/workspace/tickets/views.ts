import type { components } from '../../../generated/types/workspace.js';

type Schemas = components['schemas'];
export type TicketView = Schemas['Tickets.Ticket'];
export type CommentView = Schemas['Tickets.Comment'];
export type TicketStatus = TicketView['status'];
export type Priority = TicketView['priority'];

export interface TicketRow {
  id: string;
  workspace_id: string;
  environment: string;
  subject: string;
  description: string | null;
  priority: string;
  status: string;
  assignee_id: string | null;
  contact_id: string | null;
  sla_due_at: Date;
  sla_breached_at: Date | null;
  resolved_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const ticketColumns =
  'id, workspace_id, environment, subject, description, priority, status, assignee_id, contact_id, sla_due_at, sla_breached_at, resolved_at, closed_at, created_at, updated_at';

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

export interface CommentRow {
  id: string;
  ticket_id: string;
  body: string;
  author_id: string | null;
  internal: boolean;
  created_at: Date;
}

export const commentColumns = 'id, ticket_id, body, author_id, internal, created_at';

export function commentView(r: CommentRow): CommentView {
  return { id: r.id, ticket_id: r.ticket_id, body: r.body, author_id: r.author_id, internal: r.internal, created_at: r.created_at.toISOString() };
}
