// The ticket lifecycle and its SLA policy.
import type { Priority, TicketStatus } from './views.js';

/** Allowed moves: open ⇄ pending; open or pending → resolved or closed; resolved → open or closed; closed is final. */
const moves: Record<TicketStatus, readonly TicketStatus[]> = {
  open: ['pending', 'resolved', 'closed'],
  pending: ['open', 'resolved', 'closed'],
  resolved: ['open', 'closed'],
  closed: [],
};

export function canMove(from: TicketStatus, to: TicketStatus): boolean {
  return moves[from].includes(to);
}

/** Statuses in which the SLA clock runs. */
export function slaRunning(status: string): boolean {
  return status === 'open' || status === 'pending';
}

/** Hours from creation (or reopening) to resolution, by priority. */
export const slaHours: Record<Priority, number> = { urgent: 4, high: 8, normal: 24, low: 72 };

export function slaDue(from: Date, priority: Priority): Date {
  return new Date(from.getTime() + slaHours[priority] * 3_600_000);
}
