// The event catalogue of the workspace API: the seed's table, event by event. Each name is emitted by a real
// action of a family (docs/workspace.md, "Events", says which) into the outbox as topic svc.event.

export const workspaceEvents = [
  'lead.created',
  'lead.updated',
  'lead.assigned',
  'lead.converted',
  'deal.created',
  'deal.updated',
  'deal.stage_changed',
  'deal.won',
  'deal.lost',
  'contact.created',
  'contact.updated',
  'company.created',
  'quotation.sent',
  'quotation.accepted',
  'message.received',
  'message.sent',
  'conversation.assigned',
  'conversation.closed',
  'conversation.reopened',
  'ticket.created',
  'ticket.assigned',
  'ticket.status_changed',
  'ticket.commented',
  'ticket.sla_breached',
  'approval.requested',
  'approval.approved',
  'approval.rejected',
  'approval.cancelled',
  'approval.step_completed',
  'employee.created',
  'employee.terminated',
  'leave.requested',
  'leave.approved',
] as const;

export type WorkspaceEvent = (typeof workspaceEvents)[number];

/** One field's change on an update-type event. */
export interface Change {
  from: unknown;
  to: unknown;
}

export type Changes = Record<string, Change>;

/** An event decided by a change, written to the outbox with it. */
export interface PendingEvent {
  event: WorkspaceEvent;
  /** Snapshot of the entity at event time. */
  data: unknown;
  /** On events that change an existing record: each changed field's old and new value. */
  changes?: Changes;
}
