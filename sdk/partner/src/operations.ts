// The route tables of the partner API: one entry per operationId of generated/openapi/partner.json, split by the
// credential the operation takes.
//
// Exhaustiveness: each table is checked with `satisfies { [K in ...]: RouteOf<K> }`, a mapped type over the
// operations of the generated schema that live on that table's surfaces. A new operation in the spec makes the
// typecheck fail ("Property 'newOp' is missing") until its route is added here; a removed one is an excess property;
// RouteOf<K> only admits the (method, path) of `paths` whose operation type is operations[K], so a wrong method or
// path fails too. An operation on neither surface fails `everyOperationClassified` below. The clients' methods are
// mapped types over the same keys and are built from these tables at run time.
import type { operations, paths } from './schema.js';

export type OperationId = keyof operations;

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** True when A and B are mutually assignable. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Every `{ method, path }` of `paths` whose operation is operations[K]. */
export type RouteOf<K extends OperationId> = {
  [P in keyof paths]: {
    [M in HttpMethod & keyof paths[P]]: Same<NonNullable<paths[P][M]>, operations[K]> extends true
      ? { readonly method: M; readonly path: P }
      : never;
  }[HttpMethod & keyof paths[P]];
}[keyof paths];

/** Path prefixes an API key may enter that this SDK covers: the partner data API, key self-management, webhooks, the inbox
 * (conversations, messages, channels, knowledge base, AI), reports and storage. */
export type KeySurfacePath =
  | `/api/v1/partner/crm${string}`
  | `/api/v1/api-keys${string}`
  | `/api/v1/webhooks${string}`
  | `/api/v1/webhook-deliveries${string}`
  | `/api/v1/inbox${string}`
  | `/api/v1/reports${string}`
  | `/api/v1/storage${string}`;

/** Path prefixes of the administration operations, called with a workspace user's bearer JWT. */
export type AdminSurfacePath = `/api/v1/workspaces${string}` | `/api/v1/plans${string}`;

/** Operations called with an API key (security `api-key` in the spec). */
export type KeyOperationId = { [K in OperationId]: RouteOf<K>['path'] extends KeySurfacePath ? K : never }[OperationId];

/** Operations called with a bearer JWT (security `bearer-jwt` in the spec). */
export type AdminOperationId = { [K in OperationId]: RouteOf<K>['path'] extends AdminSurfacePath ? K : never }[OperationId];

// An operation on a surface neither client knows would silently be missing from both; fail the typecheck instead.
type Unclassified = Exclude<OperationId, KeyOperationId | AdminOperationId>;
const everyOperationClassified: [Unclassified] extends [never] ? true : Unclassified = true;
void everyOperationClassified;

/** The operations of the key client that write: POST, PATCH and DELETE, each sent with an Idempotency-Key. */
export type KeyWriteOperationId = {
  [K in KeyOperationId]: RouteOf<K>['method'] extends 'post' | 'patch' | 'delete' ? K : never;
}[KeyOperationId];

/**
 * operationId → HTTP method and path template of every API-key operation. sdk/partner/test/sdk.test.ts also
 * checks this table against generated/openapi/partner.json (security api-key) at run time.
 */
export const keyOperationRoutes = {
  getCurrentApiKey: { method: 'get', path: '/api/v1/api-keys/current' },
  revokeCurrentApiKey: { method: 'post', path: '/api/v1/api-keys/current/revoke' },
  listCrmResources: { method: 'get', path: '/api/v1/partner/crm' },
  getScopeCatalogue: { method: 'get', path: '/api/v1/partner/crm/_scopes' },
  getApiIdentity: { method: 'get', path: '/api/v1/partner/crm/_me' },
  listLeads: { method: 'get', path: '/api/v1/partner/crm/leads' },
  getLead: { method: 'get', path: '/api/v1/partner/crm/leads/{id}' },
  createLead: { method: 'post', path: '/api/v1/partner/crm/leads' },
  updateLead: { method: 'patch', path: '/api/v1/partner/crm/leads/{id}' },
  listDeals: { method: 'get', path: '/api/v1/partner/crm/deals' },
  getDeal: { method: 'get', path: '/api/v1/partner/crm/deals/{id}' },
  createDeal: { method: 'post', path: '/api/v1/partner/crm/deals' },
  updateDeal: { method: 'patch', path: '/api/v1/partner/crm/deals/{id}' },
  listContacts: { method: 'get', path: '/api/v1/partner/crm/contacts' },
  getContact: { method: 'get', path: '/api/v1/partner/crm/contacts/{id}' },
  createContact: { method: 'post', path: '/api/v1/partner/crm/contacts' },
  updateContact: { method: 'patch', path: '/api/v1/partner/crm/contacts/{id}' },
  listCompanies: { method: 'get', path: '/api/v1/partner/crm/companies' },
  getCompany: { method: 'get', path: '/api/v1/partner/crm/companies/{id}' },
  createCompany: { method: 'post', path: '/api/v1/partner/crm/companies' },
  updateCompany: { method: 'patch', path: '/api/v1/partner/crm/companies/{id}' },
  listActivities: { method: 'get', path: '/api/v1/partner/crm/activities' },
  getActivity: { method: 'get', path: '/api/v1/partner/crm/activities/{id}' },
  createActivity: { method: 'post', path: '/api/v1/partner/crm/activities' },
  listInvoices: { method: 'get', path: '/api/v1/partner/crm/invoices' },
  getInvoice: { method: 'get', path: '/api/v1/partner/crm/invoices/{id}' },
  listQuotations: { method: 'get', path: '/api/v1/partner/crm/quotations' },
  getQuotation: { method: 'get', path: '/api/v1/partner/crm/quotations/{id}' },
  listPayments: { method: 'get', path: '/api/v1/partner/crm/payments' },
  getPayment: { method: 'get', path: '/api/v1/partner/crm/payments/{id}' },
  listProducts: { method: 'get', path: '/api/v1/partner/crm/products' },
  getProduct: { method: 'get', path: '/api/v1/partner/crm/products/{id}' },
  listSubscriptions: { method: 'get', path: '/api/v1/partner/crm/subscriptions' },
  getSubscription: { method: 'get', path: '/api/v1/partner/crm/subscriptions/{id}' },
  listWebhookEndpoints: { method: 'get', path: '/api/v1/webhooks' },
  createWebhookEndpoint: { method: 'post', path: '/api/v1/webhooks' },
  getWebhookEndpoint: { method: 'get', path: '/api/v1/webhooks/{id}' },
  updateWebhookEndpoint: { method: 'patch', path: '/api/v1/webhooks/{id}' },
  deleteWebhookEndpoint: { method: 'delete', path: '/api/v1/webhooks/{id}' },
  pauseWebhookEndpoint: { method: 'post', path: '/api/v1/webhooks/{id}/pause' },
  resumeWebhookEndpoint: { method: 'post', path: '/api/v1/webhooks/{id}/resume' },
  disableWebhookEndpoint: { method: 'post', path: '/api/v1/webhooks/{id}/disable' },
  testWebhookEndpoint: { method: 'post', path: '/api/v1/webhooks/{id}/test' },
  listWebhookDeliveries: { method: 'get', path: '/api/v1/webhook-deliveries' },
  getWebhookDelivery: { method: 'get', path: '/api/v1/webhook-deliveries/{id}' },
  resendWebhookDelivery: { method: 'post', path: '/api/v1/webhook-deliveries/{id}/resend' },
  replayWebhookDelivery: { method: 'post', path: '/api/v1/webhook-deliveries/{id}/replay' },
  listInboxConversations: { method: 'get', path: '/api/v1/inbox/conversations' },
  getInboxConversation: { method: 'get', path: '/api/v1/inbox/conversations/{id}' },
  updateInboxConversation: { method: 'patch', path: '/api/v1/inbox/conversations/{id}' },
  listInboxConversationMessages: { method: 'get', path: '/api/v1/inbox/conversations/{id}/messages' },
  sendInboxMessage: { method: 'post', path: '/api/v1/inbox/conversations/{id}/messages' },
  listInboxMessages: { method: 'get', path: '/api/v1/inbox/messages' },
  getInboxMessage: { method: 'get', path: '/api/v1/inbox/messages/{id}' },
  listInboxChannels: { method: 'get', path: '/api/v1/inbox/channels' },
  createInboxChannel: { method: 'post', path: '/api/v1/inbox/channels' },
  getInboxChannel: { method: 'get', path: '/api/v1/inbox/channels/{id}' },
  updateInboxChannel: { method: 'patch', path: '/api/v1/inbox/channels/{id}' },
  deleteInboxChannel: { method: 'delete', path: '/api/v1/inbox/channels/{id}' },
  getInboxReport: { method: 'get', path: '/api/v1/reports/inbox' },
  listKbArticles: { method: 'get', path: '/api/v1/inbox/kb/articles' },
  createKbArticle: { method: 'post', path: '/api/v1/inbox/kb/articles' },
  getKbArticle: { method: 'get', path: '/api/v1/inbox/kb/articles/{id}' },
  updateKbArticle: { method: 'patch', path: '/api/v1/inbox/kb/articles/{id}' },
  deleteKbArticle: { method: 'delete', path: '/api/v1/inbox/kb/articles/{id}' },
  searchKbArticles: { method: 'get', path: '/api/v1/inbox/kb/search' },
  getAiSettings: { method: 'get', path: '/api/v1/inbox/ai/settings' },
  createAiSuggestions: { method: 'post', path: '/api/v1/inbox/ai/suggestions' },
  listAiAgents: { method: 'get', path: '/api/v1/inbox/ai/agents' },
  createAiAgent: { method: 'post', path: '/api/v1/inbox/ai/agents' },
  getAiAgent: { method: 'get', path: '/api/v1/inbox/ai/agents/{id}' },
  updateAiAgent: { method: 'patch', path: '/api/v1/inbox/ai/agents/{id}' },
  deleteAiAgent: { method: 'delete', path: '/api/v1/inbox/ai/agents/{id}' },
  uploadStorageFile: { method: 'post', path: '/api/v1/storage/files' },
  listStorageFiles: { method: 'get', path: '/api/v1/storage/files' },
  getStorageFile: { method: 'get', path: '/api/v1/storage/files/{id}' },
  getStorageFileContent: { method: 'get', path: '/api/v1/storage/files/{id}/content' },
  deleteStorageFile: { method: 'delete', path: '/api/v1/storage/files/{id}' },
} as const satisfies { readonly [K in KeyOperationId]: RouteOf<K> };

/** operationId → HTTP method and path template of every bearer-JWT (administration) operation. */
export const adminOperationRoutes = {
  listPlans: { method: 'get', path: '/api/v1/plans' },
  createWorkspace: { method: 'post', path: '/api/v1/workspaces' },
  listWorkspaces: { method: 'get', path: '/api/v1/workspaces' },
  getWorkspace: { method: 'get', path: '/api/v1/workspaces/{workspace_id}' },
  setWorkspacePlan: { method: 'put', path: '/api/v1/workspaces/{workspace_id}/plan' },
  listMembers: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/members' },
  putMember: { method: 'put', path: '/api/v1/workspaces/{workspace_id}/members/{account_id}' },
  removeMember: { method: 'delete', path: '/api/v1/workspaces/{workspace_id}/members/{account_id}' },
  listRoles: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/roles' },
  createRole: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/roles' },
  setRoleApiKeyCells: { method: 'put', path: '/api/v1/workspaces/{workspace_id}/roles/{role}/permissions/api_keys' },
  listApiKeys: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/api-keys' },
  createApiKey: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/api-keys' },
  getApiKey: { method: 'get', path: '/api/v1/workspaces/{workspace_id}/api-keys/{key_id}' },
  revokeApiKey: { method: 'post', path: '/api/v1/workspaces/{workspace_id}/api-keys/{key_id}/revoke' },
} as const satisfies { readonly [K in AdminOperationId]: RouteOf<K> };

/** Operations whose 2xx body is a file's bytes (any media type): the client resolves them to an ArrayBuffer. */
export const byteResponseOperations: ReadonlySet<KeyOperationId> = new Set<KeyOperationId>(['getStorageFileContent']);

export const keyOperationIds = Object.keys(keyOperationRoutes) as KeyOperationId[];
export const adminOperationIds = Object.keys(adminOperationRoutes) as AdminOperationId[];

/** A route of either table, as the shared request code sees it. */
export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
}
