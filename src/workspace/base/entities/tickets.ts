// The tables workspace/tickets owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const TicketEntity = defineEntity({
  name: 'Ticket',
  tableName: 'tickets',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'tickets_workspace_id_fkey'),
    environment: p.text(),
    subject: p.text(),
    description: p.text().nullable(),
    priority: p.text(),
    status: p.text(),
    assigneeId: p.uuid().fieldName('assignee_id').nullable(),
    contactId: p.uuid().fieldName('contact_id').nullable(),
    slaDueAt: p.datetime().fieldName('sla_due_at'),
    slaBreachedAt: p.datetime().fieldName('sla_breached_at').nullable(),
    resolvedAt: p.datetime().fieldName('resolved_at').nullable(),
    closedAt: p.datetime().fieldName('closed_at').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'tickets_list',
      expression: 'CREATE INDEX tickets_list ON tickets USING btree (workspace_id, environment, id DESC)',
    },
    {
      name: 'tickets_sla_pending',
      properties: ['slaDueAt'],
      where: "((sla_breached_at IS NULL) AND (status = ANY (ARRAY['open'::text, 'pending'::text])))",
    },
  ],
  checks: [
    { name: 'tickets_environment_check', expression: "((environment = ANY (ARRAY['live'::text, 'test'::text])))" },
    {
      name: 'tickets_priority_check',
      expression: "((priority = ANY (ARRAY['low'::text, 'normal'::text, 'high'::text, 'urgent'::text])))",
    },
    {
      name: 'tickets_status_check',
      expression: "((status = ANY (ARRAY['open'::text, 'pending'::text, 'resolved'::text, 'closed'::text])))",
    },
  ],
});
export type Ticket = InferEntity<typeof TicketEntity>;

export const TicketCommentEntity = defineEntity({
  name: 'TicketComment',
  tableName: 'ticket_comments',
  properties: {
    id: p.uuid().primary(),
    ticketId: reference(p.uuid().fieldName('ticket_id'), 'Ticket', 'ticket_comments_ticket_id_fkey'),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'ticket_comments_workspace_id_fkey'),
    environment: p.text(),
    body: p.text(),
    authorId: p.uuid().fieldName('author_id').nullable(),
    internal: p.boolean(),
    createdAt: p.datetime().fieldName('created_at'),
  },
  indexes: [{ name: 'ticket_comments_ticket', properties: ['ticketId', 'id'] }],
  checks: [
    {
      name: 'ticket_comments_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text])))",
    },
  ],
});
export type TicketComment = InferEntity<typeof TicketCommentEntity>;
