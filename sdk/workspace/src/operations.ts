// The route tables of the workspace API: one entry per operationId of generated/openapi/workspace.json, split by
// the credential the operation takes. Each table is checked with `satisfies { [K in ...]: RouteOf<K> }`: a new
// operation in the spec fails the typecheck until its route is added here, and a wrong method or path fails too.
import type { operations, paths } from './schema.js';

export type OperationId = keyof operations;

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Every `{ method, path }` of `paths` whose operation is operations[K]. */
export type RouteOf<K extends OperationId> = {
  [P in keyof paths]: {
    [M in HttpMethod & keyof paths[P]]: Same<NonNullable<paths[P][M]>, operations[K]> extends true
      ? { readonly method: M; readonly path: P }
      : never;
  }[HttpMethod & keyof paths[P]];
}[keyof paths];

/** Paths of the administration operations, called with a workspace Owner's or Admin's bearer JWT. */
export type AdminSurfacePath = `/api/v1/workspaces${string}`;

/** Paths this SDK leaves out: the load balancer's probes. */
export type ProbePath = '/healthz' | '/readyz';

/** Operations called with an administration token. */
export type AdminOperationId = { [K in OperationId]: RouteOf<K>['path'] extends AdminSurfacePath ? K : never }[OperationId];

/** Operations called with a svc_ key: the module families and the public scope catalogue. */
export type KeyOperationId = { [K in OperationId]: RouteOf<K>['path'] extends AdminSurfacePath | ProbePath ? never : K }[OperationId];

/** operationId → HTTP method and path template of every operation of the key client. */
export const keyOperationRoutes = {
  listScopes: { method: 'get', path: '/api/v1/scopes' },
  listLeads: { method: 'get', path: '/api/v1/leads' },
  createLead: { method: 'post', path: '/api/v1/leads' },
  getLead: { method: 'get', path: '/api/v1/leads/{id}' },
  updateLead: { method: 'patch', path: '/api/v1/leads/{id}' },
  listApprovals: { method: 'get', path: '/api/v1/approvals' },
  createApproval: { method: 'post', path: '/api/v1/approvals' },
  getApproval: { method: 'get', path: '/api/v1/approvals/{id}' },
  cancelApproval: { method: 'post', path: '/api/v1/approvals/{id}/cancel' },
  listApprovalDecisions: { method: 'get', path: '/api/v1/approvals/{id}/decisions' },
  createApprovalDecision: { method: 'post', path: '/api/v1/approvals/{id}/decisions' },
  listAttendance: { method: 'get', path: '/api/v1/attendance' },
  createAttendance: { method: 'post', path: '/api/v1/attendance' },
  getAttendance: { method: 'get', path: '/api/v1/attendance/{id}' },
  updateAttendance: { method: 'patch', path: '/api/v1/attendance/{id}' },
  listCompanies: { method: 'get', path: '/api/v1/companies' },
  createCompany: { method: 'post', path: '/api/v1/companies' },
  getCompany: { method: 'get', path: '/api/v1/companies/{id}' },
  updateCompany: { method: 'patch', path: '/api/v1/companies/{id}' },
  listContacts: { method: 'get', path: '/api/v1/contacts' },
  createContact: { method: 'post', path: '/api/v1/contacts' },
  getContact: { method: 'get', path: '/api/v1/contacts/{id}' },
  updateContact: { method: 'patch', path: '/api/v1/contacts/{id}' },
  listConversations: { method: 'get', path: '/api/v1/conversations' },
  createConversation: { method: 'post', path: '/api/v1/conversations' },
  getConversation: { method: 'get', path: '/api/v1/conversations/{id}' },
  assignConversation: { method: 'post', path: '/api/v1/conversations/{id}/assign' },
  closeConversation: { method: 'post', path: '/api/v1/conversations/{id}/close' },
  reopenConversation: { method: 'post', path: '/api/v1/conversations/{id}/reopen' },
  listDeals: { method: 'get', path: '/api/v1/deals' },
  createDeal: { method: 'post', path: '/api/v1/deals' },
  getDeal: { method: 'get', path: '/api/v1/deals/{id}' },
  updateDeal: { method: 'patch', path: '/api/v1/deals/{id}' },
  listEmployees: { method: 'get', path: '/api/v1/employees' },
  createEmployee: { method: 'post', path: '/api/v1/employees' },
  getEmployee: { method: 'get', path: '/api/v1/employees/{id}' },
  updateEmployee: { method: 'patch', path: '/api/v1/employees/{id}' },
  terminateEmployee: { method: 'post', path: '/api/v1/employees/{id}/terminate' },
  convertLead: { method: 'post', path: '/api/v1/leads/{id}/convert' },
  listLeaves: { method: 'get', path: '/api/v1/leaves' },
  createLeave: { method: 'post', path: '/api/v1/leaves' },
  getLeave: { method: 'get', path: '/api/v1/leaves/{id}' },
  approveLeave: { method: 'post', path: '/api/v1/leaves/{id}/approve' },
  rejectLeave: { method: 'post', path: '/api/v1/leaves/{id}/reject' },
  listMessages: { method: 'get', path: '/api/v1/messages' },
  createMessage: { method: 'post', path: '/api/v1/messages' },
  getMessage: { method: 'get', path: '/api/v1/messages/{id}' },
  listQuotations: { method: 'get', path: '/api/v1/quotations' },
  createQuotation: { method: 'post', path: '/api/v1/quotations' },
  getQuotation: { method: 'get', path: '/api/v1/quotations/{id}' },
  updateQuotation: { method: 'patch', path: '/api/v1/quotations/{id}' },
  acceptQuotation: { method: 'post', path: '/api/v1/quotations/{id}/accept' },
  declineQuotation: { method: 'post', path: '/api/v1/quotations/{id}/decline' },
  sendQuotation: { method: 'post', path: '/api/v1/quotations/{id}/send' },
  listTickets: { method: 'get', path: '/api/v1/tickets' },
  createTicket: { method: 'post', path: '/api/v1/tickets' },
  getTicket: { method: 'get', path: '/api/v1/tickets/{id}' },
  updateTicket: { method: 'patch', path: '/api/v1/tickets/{id}' },
  listTicketComments: { method: 'get', path: '/api/v1/tickets/{id}/comments' },
  createTicketComment: { method: 'post', path: '/api/v1/tickets/{id}/comments' },
  listWebhooks: { method: 'get', path: '/api/v1/webhooks' },
  createWebhook: { method: 'post', path: '/api/v1/webhooks' },
  getWebhook: { method: 'get', path: '/api/v1/webhooks/{id}' },
  updateWebhook: { method: 'patch', path: '/api/v1/webhooks/{id}' },
  deleteWebhook: { method: 'delete', path: '/api/v1/webhooks/{id}' },
  pauseWebhook: { method: 'post', path: '/api/v1/webhooks/{id}/pause' },
  resumeWebhook: { method: 'post', path: '/api/v1/webhooks/{id}/resume' },
  disableWebhook: { method: 'post', path: '/api/v1/webhooks/{id}/disable' },
  testWebhook: { method: 'post', path: '/api/v1/webhooks/{id}/test' },
  listWebhookDeliveries: { method: 'get', path: '/api/v1/webhooks/{id}/deliveries' },
  resendWebhookDelivery: { method: 'post', path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/resend' },
  replayWebhookDelivery: { method: 'post', path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/replay' },
} as const satisfies { readonly [K in KeyOperationId]: RouteOf<K> };

/** operationId → HTTP method and path template of every administration operation. */
export const adminOperationRoutes = {
  createSvcKey: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/svc-keys' },
  listSvcKeys: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/svc-keys' },
  getSvcKey: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/svc-keys/{key_id}' },
  revokeSvcKey: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/svc-keys/{key_id}/revoke' },
  listSvcAuditLog: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/svc-audit-log' },
  createWorkspaceWebhook: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/webhooks' },
  listWorkspaceWebhooks: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/webhooks' },
  getWorkspaceWebhook: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}' },
  updateWorkspaceWebhook: { method: 'patch', path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}' },
  deleteWorkspaceWebhook: { method: 'delete', path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}' },
  pauseWorkspaceWebhook: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}/pause' },
  resumeWorkspaceWebhook: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}/resume' },
  disableWorkspaceWebhook: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}/disable' },
  testWorkspaceWebhook: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}/test' },
  listWorkspaceWebhookDeliveries: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}/deliveries' },
  resendWorkspaceWebhookDelivery: {
    method: 'post',
    path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}/deliveries/{delivery_id}/resend',
  },
  replayWorkspaceWebhookDelivery: {
    method: 'post',
    path: '/api/v1/workspaces/{workspace_id}/webhooks/{id}/deliveries/{delivery_id}/replay',
  },
  getWorkspaceNotifications: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/notifications' },
  setWorkspaceNotifications: { method: 'put', path: '/api/v1/workspaces/{workspace_id}/notifications' },
} as const satisfies { readonly [K in AdminOperationId]: RouteOf<K> };

export const keyOperationIds = Object.keys(keyOperationRoutes) as KeyOperationId[];
export const adminOperationIds = Object.keys(adminOperationRoutes) as AdminOperationId[];

/**
 * Operations that may be repeated after a 5xx or a network error: reads, PATCHes that set values (updateLead,
 * updateWebhook), revocation (repeating it answers the revoked key) and the webhook state changes that answer the
 * current state when repeated (pause, resume, disable). Creates, tests, resends and replays are repeated after a 429
 * only.
 */
export const repeatableOperations: ReadonlySet<OperationId> = new Set<OperationId>([
  'updateLead',
  'revokeSvcKey',
  // PATCHes that set values, and moves whose repeat answers the record unchanged.
  'updateDeal',
  'updateContact',
  'updateCompany',
  'updateQuotation',
  'sendQuotation',
  'acceptQuotation',
  'declineQuotation',
  'assignConversation',
  'closeConversation',
  'reopenConversation',
  'updateEmployee',
  'terminateEmployee',
  'updateAttendance',
  'approveLeave',
  'rejectLeave',
  'updateTicket',
  'cancelApproval',
  'updateLead',
  'revokeSvcKey',
  'updateWebhook',
  'pauseWebhook',
  'resumeWebhook',
  'disableWebhook',
  'updateWorkspaceWebhook',
  'pauseWorkspaceWebhook',
  'resumeWorkspaceWebhook',
  'disableWorkspaceWebhook',
  // A PUT sets the whole value.
  'setWorkspaceNotifications',
]);

export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
}
