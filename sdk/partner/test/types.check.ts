// Compile-time checks of the SDK's derived types. The root typecheck (tsc -p tsconfig.json) covers this file; it is
// never run. Each @ts-expect-error line must stay an error, or the typecheck fails.
import type {
  AdminOperationId,
  AdminPaginatedOperationId,
  ItemOf,
  KeyOperationId,
  KeyPaginatedOperationId,
  KeyWriteOperationId,
  ListOperationId,
  OperationData,
  operations,
  PartnerAdminClient,
  PartnerApiError,
  PartnerClient,
  Schemas,
} from '../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Mutually assignable (openapi-fetch's Readable<> wrapper keeps the shape but not the identity). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function assert<T extends true>(): T | void {}

/** The operations whose spec declares an Idempotency-Key header parameter. */
type WithIdempotencyHeader = {
  [K in keyof operations]: operations[K]['parameters']['header'] extends { 'Idempotency-Key': string } ? K : never;
}[keyof operations];

type WebhookWriteOperationId =
  | 'createWebhookEndpoint'
  | 'updateWebhookEndpoint'
  | 'deleteWebhookEndpoint'
  | 'pauseWebhookEndpoint'
  | 'resumeWebhookEndpoint'
  | 'disableWebhookEndpoint'
  | 'testWebhookEndpoint'
  | 'resendWebhookDelivery'
  | 'replayWebhookDelivery';
type WebhookOperationId =
  WebhookWriteOperationId | 'listWebhookEndpoints' | 'getWebhookEndpoint' | 'listWebhookDeliveries' | 'getWebhookDelivery';
type InboxWriteOperationId =
  'updateInboxConversation' | 'sendInboxMessage' | 'createInboxChannel' | 'updateInboxChannel' | 'deleteInboxChannel';
type InboxOperationId =
  | InboxWriteOperationId
  | 'listInboxConversations'
  | 'getInboxConversation'
  | 'listInboxConversationMessages'
  | 'listInboxMessages'
  | 'getInboxMessage'
  | 'listInboxChannels'
  | 'getInboxChannel'
  | 'getInboxReport';
type KbAiStorageWriteOperationId =
  | 'createKbArticle'
  | 'updateKbArticle'
  | 'deleteKbArticle'
  | 'createAiSuggestions'
  | 'createAiAgent'
  | 'updateAiAgent'
  | 'deleteAiAgent'
  | 'uploadStorageFile'
  | 'deleteStorageFile';
type KbAiStorageOperationId =
  | KbAiStorageWriteOperationId
  | 'listKbArticles'
  | 'getKbArticle'
  | 'searchKbArticles'
  | 'getAiSettings'
  | 'listAiAgents'
  | 'getAiAgent'
  | 'listStorageFiles'
  | 'getStorageFile'
  | 'getStorageFileContent';

// The two clients split the spec's operations between them, and each client has exactly its own as methods.
assert<Equal<KeyOperationId | AdminOperationId, keyof operations>>();
assert<Equal<KeyOperationId & AdminOperationId, never>>();
assert<Equal<Extract<keyof PartnerClient, keyof operations>, KeyOperationId>>();
assert<Equal<Extract<keyof PartnerAdminClient, keyof operations>, AdminOperationId>>();
assert<
  Equal<
    KeyOperationId,
    | 'listCrmResources'
    | 'getScopeCatalogue'
    | 'getApiIdentity'
    | 'listLeads'
    | 'getLead'
    | 'createLead'
    | 'updateLead'
    | 'listDeals'
    | 'getDeal'
    | 'createDeal'
    | 'updateDeal'
    | 'listContacts'
    | 'getContact'
    | 'createContact'
    | 'updateContact'
    | 'listCompanies'
    | 'getCompany'
    | 'createCompany'
    | 'updateCompany'
    | 'listActivities'
    | 'getActivity'
    | 'createActivity'
    | 'listInvoices'
    | 'getInvoice'
    | 'listQuotations'
    | 'getQuotation'
    | 'listPayments'
    | 'getPayment'
    | 'listProducts'
    | 'getProduct'
    | 'listSubscriptions'
    | 'getSubscription'
    | 'getCurrentApiKey'
    | 'revokeCurrentApiKey'
    | WebhookOperationId
    | InboxOperationId
    | KbAiStorageOperationId
  >
>();
// The writes the client sends an Idempotency-Key with are exactly those the spec gives the header.
assert<Equal<KeyWriteOperationId, WithIdempotencyHeader>>();
assert<
  Equal<
    KeyWriteOperationId,
    | 'createLead'
    | 'updateLead'
    | 'createDeal'
    | 'updateDeal'
    | 'createContact'
    | 'updateContact'
    | 'createCompany'
    | 'updateCompany'
    | 'createActivity'
    | 'revokeCurrentApiKey'
    | WebhookWriteOperationId
    | InboxWriteOperationId
    | KbAiStorageWriteOperationId
  >
>();

// Pagination: lists with a cursor; the one-page lists are lists but cannot be walked.
assert<Equal<AdminPaginatedOperationId, 'listWorkspaces' | 'listMembers' | 'listApiKeys'>>();
assert<
  Equal<Exclude<ListOperationId, KeyPaginatedOperationId | AdminPaginatedOperationId>, 'listCrmResources' | 'listPlans' | 'listRoles'>
>();
assert<Same<ItemOf<'listLeads'>, Schemas['Crm.Lead']>>();
assert<Same<OperationData<'getLead'>, Schemas['Crm.Lead']>>();
// @ts-expect-error Same<> can fail: a lead is not a deal
assert<Same<ItemOf<'listLeads'>, Schemas['Crm.Deal']>>();
assert<Equal<OperationData<'createDeal'>, Schemas['Crm.Deal']>>();
assert<Equal<OperationData<'removeMember'>, undefined>>();
assert<Equal<PartnerApiError['details'], Record<string, unknown>>>();

export async function typeChecks(client: PartnerClient, admin: PartnerAdminClient): Promise<void> {
  const lead = await client.createLead({ body: { full_name: 'Ada', status: 'new' } }, { idempotencyKey: 'order-42' });
  const id: string = lead.id;
  const status: 'new' | 'contacted' | 'qualified' | 'unqualified' | 'converted' = lead.status;
  void id;
  void status;
  await client.updateLead({ path: { id }, body: { email: null } });
  await client.getLead({ path: { id } }, { signal: AbortSignal.timeout(1000), maxRetries: 0 });
  await client.listLeads();
  await client.listLeads({ query: { status: 'qualified', limit: 10 } });
  await client.getApiIdentity();

  // @ts-expect-error getLead needs its id
  await client.getLead();
  // @ts-expect-error full_name is required on create
  await client.createLead({ body: { email: 'a@example.com' } });
  // @ts-expect-error not a lead status
  await client.createLead({ body: { full_name: 'x', status: 'won' } });
  // @ts-expect-error activities have no status filter
  await client.listActivities({ query: { status: 'new' } });
  // @ts-expect-error reads take no idempotency key
  await client.getLead({ path: { id } }, { idempotencyKey: 'k' });
  // @ts-expect-error activities cannot be updated
  await client.updateActivity;
  // @ts-expect-error administration is not on the key client
  await client.createWorkspace;
  // @ts-expect-error the header is the client's business, not an input
  await client.createLead({ body: { full_name: 'x' }, header: { 'Idempotency-Key': 'k' } });

  for await (const l of client.paginate('listLeads', { status: 'new', limit: 100 })) {
    const name: string = l.full_name;
    void name;
  }
  for await (const page of client.pages('listDeals')) {
    const more: boolean = page.has_more;
    const next: string | null = page.next_cursor;
    const title: string | undefined = page.data[0]?.title;
    void more;
    void next;
    void title;
  }
  // @ts-expect-error the resource index answers in one page
  client.paginate('listCrmResources');
  // @ts-expect-error not a list
  client.paginate('getLead');
  // @ts-expect-error not a lead status
  client.paginate('listLeads', { status: 'won' });

  const ws = await admin.createWorkspace({ body: { name: 'Acme' } });
  const wsId: string = ws.id;
  await admin.setWorkspacePlan({ path: { workspace_id: wsId }, body: { plan: 'business' } });
  const created = await admin.createApiKey({ path: { workspace_id: wsId }, body: { name: 'ERP', preset: 'CRM sales full' } });
  const secret: string = created.key;
  void secret;
  for await (const m of admin.paginate('listMembers', { path: { workspace_id: wsId } })) {
    const role: string = m.role;
    void role;
  }
  // @ts-expect-error listMembers needs its workspace_id
  admin.paginate('listMembers');
  // @ts-expect-error the admin client has no partner data operations
  await admin.listLeads;

  // The raw client is openapi-fetch, typed by the same paths.
  const raw = await client.raw.GET('/api/v1/partner/crm/leads/{id}', { params: { path: { id } } });
  if (raw.data) {
    const name: string = raw.data.full_name;
    void name;
  }
}
