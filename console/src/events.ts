// The webhook event catalogue by the seed's groups. The type check keeps it equal to the document's WebhookEvent.
import type { components } from '@chat-platform/workspace-sdk';

export type WebhookEvent = components['schemas']['Webhooks.WebhookEvent'];

export const eventGroups = {
  CRM: [
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
  ],
  Inbox: ['message.received', 'message.sent', 'conversation.assigned', 'conversation.closed', 'conversation.reopened'],
  Ticket: ['ticket.created', 'ticket.assigned', 'ticket.status_changed', 'ticket.commented', 'ticket.sla_breached'],
  Approval: ['approval.requested', 'approval.approved', 'approval.rejected', 'approval.cancelled', 'approval.step_completed'],
  HR: ['employee.created', 'employee.terminated', 'leave.requested', 'leave.approved'],
} as const satisfies Record<string, readonly WebhookEvent[]>;

type Listed = (typeof eventGroups)[keyof typeof eventGroups][number];
// Fails to compile when the document gains an event this list lacks.
const complete: [Exclude<WebhookEvent, Listed>] extends [never] ? true : Exclude<WebhookEvent, Listed> = true;
void complete;

/** A sample of the event's data for the test tool, editable before sending. */
export function samplePayload(event: string): Record<string, unknown> {
  const now = new Date().toISOString();
  if (event.startsWith('lead.')) {
    return {
      id: '0192f000-0000-7000-8000-000000000001',
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      email: 'ada@example.com',
      source: 'website',
      status: 'new',
      owner_id: null,
      created_at: now,
      custom_fields: {},
    };
  }
  if (event.startsWith('deal.'))
    return { id: '0192f000-0000-7000-8000-000000000002', name: 'Analytical engine', stage: 'proposal', amount: 12000, owner_id: null };
  return { id: '0192f000-0000-7000-8000-000000000003' };
}
