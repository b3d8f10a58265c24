// The ticket families (/tickets, /tickets/{id}/comments): typed in, one service call, the record out.
import { partitionOf } from '../crm/partition.js';
import type { WorkspaceDeps } from '../base/deps.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { TicketService, ticketsPath } from './tickets.js';

export type TicketOperationId =
  'listTickets' | 'createTicket' | 'getTicket' | 'updateTicket' | 'listTicketComments' | 'createTicketComment';

export function ticketHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<TicketOperationId> {
  const tickets = new TicketService(deps);
  return {
    async listTickets({ query }, ctx) {
      return { status: 200, body: await tickets.list(partitionOf(ctx), query ?? {}) };
    },
    async createTicket({ body }, ctx) {
      const ticket = await tickets.create(partitionOf(ctx), body);
      return { status: 201, body: ticket, location: `${ticketsPath}/${ticket.id}` };
    },
    async getTicket({ params }, ctx) {
      return { status: 200, body: await tickets.get(partitionOf(ctx), params.id) };
    },
    async updateTicket({ params, body }, ctx) {
      return { status: 200, body: await tickets.update(partitionOf(ctx), params.id, body) };
    },
    async listTicketComments({ params, query }, ctx) {
      return { status: 200, body: await tickets.listComments(partitionOf(ctx), params.id, query ?? {}) };
    },
    async createTicketComment({ params, body }, ctx) {
      const comment = await tickets.comment(partitionOf(ctx), params.id, body);
      return { status: 201, body: comment, location: `${ticketsPath}/${params.id}/comments` };
    },
  };
}
