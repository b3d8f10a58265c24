// Compile-time checks of the SDK's derived types. The root typecheck (tsc -p tsconfig.json) covers this file; it is
// never run. Each @ts-expect-error line must stay an error, or the typecheck fails.
import type {
  AdminOperationId,
  ItemOf,
  KeyOperationId,
  KeyPaginatedOperationId,
  operations,
  Schemas,
  WebhookDataOf,
  WebhookDeliveryHeadersOf,
  WebhookEnvelope,
  WebhookEventName,
  WorkspaceAdminClient,
  WorkspaceClient,
} from '../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assert<T extends true>(): T | void {}

type WorkspaceWebhookOperationId =
  | 'createWorkspaceWebhook'
  | 'listWorkspaceWebhooks'
  | 'getWorkspaceWebhook'
  | 'updateWorkspaceWebhook'
  | 'deleteWorkspaceWebhook'
  | 'pauseWorkspaceWebhook'
  | 'resumeWorkspaceWebhook'
  | 'disableWorkspaceWebhook'
  | 'testWorkspaceWebhook'
  | 'listWorkspaceWebhookDeliveries'
  | 'resendWorkspaceWebhookDelivery'
  | 'replayWorkspaceWebhookDelivery';
assert<
  Equal<
    AdminOperationId,
    | 'createSvcKey'
    | 'listSvcKeys'
    | 'getSvcKey'
    | 'revokeSvcKey'
    | 'listSvcAuditLog'
    | WorkspaceWebhookOperationId
    | 'getWorkspaceNotifications'
    | 'setWorkspaceNotifications'
  >
>();
assert<Equal<Exclude<keyof operations, KeyOperationId | AdminOperationId>, 'getHealth' | 'getReadiness'>>();
assert<
  Equal<
    KeyPaginatedOperationId,
    | 'listApprovalDecisions'
    | 'listApprovals'
    | 'listAttendance'
    | 'listCompanies'
    | 'listContacts'
    | 'listConversations'
    | 'listDeals'
    | 'listEmployees'
    | 'listLeads'
    | 'listLeaves'
    | 'listMessages'
    | 'listQuotations'
    | 'listTicketComments'
    | 'listTickets'
    | 'listWebhooks'
    | 'listWebhookDeliveries'
  >
>();
assert<Equal<ItemOf<'listDeals'>, Schemas['Crm.Deal']>>();
assert<Equal<ItemOf<'listTicketComments'>, Schemas['Tickets.Comment']>>();
type WebhookOperationId =
  | 'listWebhooks'
  | 'createWebhook'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'pauseWebhook'
  | 'resumeWebhook'
  | 'disableWebhook'
  | 'testWebhook'
  | 'listWebhookDeliveries'
  | 'resendWebhookDelivery'
  | 'replayWebhookDelivery';
assert<
  Equal<
    KeyOperationId,
    | 'acceptQuotation'
    | 'approveLeave'
    | 'assignConversation'
    | 'cancelApproval'
    | 'closeConversation'
    | 'convertLead'
    | 'createApproval'
    | 'createApprovalDecision'
    | 'createAttendance'
    | 'createCompany'
    | 'createContact'
    | 'createConversation'
    | 'createDeal'
    | 'createEmployee'
    | 'createLead'
    | 'createLeave'
    | 'createMessage'
    | 'createQuotation'
    | 'createTicket'
    | 'createTicketComment'
    | 'declineQuotation'
    | 'getApproval'
    | 'getAttendance'
    | 'getCompany'
    | 'getContact'
    | 'getConversation'
    | 'getDeal'
    | 'getEmployee'
    | 'getLead'
    | 'getLeave'
    | 'getMessage'
    | 'getQuotation'
    | 'getTicket'
    | 'listApprovalDecisions'
    | 'listApprovals'
    | 'listAttendance'
    | 'listCompanies'
    | 'listContacts'
    | 'listConversations'
    | 'listDeals'
    | 'listEmployees'
    | 'listLeads'
    | 'listLeaves'
    | 'listMessages'
    | 'listQuotations'
    | 'listScopes'
    | 'listTicketComments'
    | 'listTickets'
    | 'rejectLeave'
    | 'reopenConversation'
    | 'sendQuotation'
    | 'terminateEmployee'
    | 'updateAttendance'
    | 'updateCompany'
    | 'updateContact'
    | 'updateDeal'
    | 'updateEmployee'
    | 'updateLead'
    | 'updateQuotation'
    | 'updateTicket'
    | WebhookOperationId
  >
>();
assert<Equal<ItemOf<'listLeads'>, Schemas['Crm.Lead']>>();
// The webhook types come from the document's webhooks map: the 33 catalogue events and ping, each with its data.
assert<
  Equal<Extract<WebhookEventName, `deal.${string}`>, 'deal.created' | 'deal.updated' | 'deal.stage_changed' | 'deal.won' | 'deal.lost'>
>();
assert<Equal<WebhookDataOf<'deal.won'>, Schemas['Deliveries.DealEventData']>>();
assert<Equal<WebhookDataOf<'ticket.commented'>, Schemas['Tickets.Comment']>>();
assert<Equal<WebhookDeliveryHeadersOf<'lead.created'>['X-SVC-Event'], 'lead.created'>>();

declare const crm: WorkspaceClient;
declare const admin: WorkspaceAdminClient;
void (async () => {
  const lead = await crm.createLead({ body: { name: 'Ada' } });
  lead.owner_id satisfies string | null;
  // @ts-expect-error name is required
  await crm.createLead({ body: { email: 'ada@example.com' } });
  // @ts-expect-error the status must be one of the enum
  await crm.updateLead({ path: { id: lead.id }, body: { status: 'won' } });
  const conversion = await crm.convertLead({ path: { id: lead.id }, body: { stage: 'proposal' } });
  conversion.deal.stage satisfies string | null;
  // @ts-expect-error a deal's amount is a number of minor units
  await crm.createDeal({ body: { name: 'x', amount: '10.00' } });
  // @ts-expect-error a ticket's status must be one of the lifecycle's
  await crm.updateTicket({ path: { id: lead.id }, body: { status: 'reopened' } });
  // @ts-expect-error administration is not a method of the key client
  await crm.createSvcKey({ path: { workspace_id: '' }, body: { name: 'x', scopes: ['admin'] } });
  // @ts-expect-error a scope outside the catalogue
  await admin.createSvcKey({ path: { workspace_id: '' }, body: { name: 'x', scopes: ['crm.leads.fly'] } });
});

declare const envelope: WebhookEnvelope;
if (envelope.event === 'deal.won') envelope.data.amount satisfies number | null;
if (envelope.event === 'message.received') envelope.data.conversation_id satisfies string;
// @ts-expect-error an event outside the catalogue
void (envelope.event === 'deal.vanished');
