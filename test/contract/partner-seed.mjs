// Rows the partner suite's dictionaries point at: without them every detail and update of a CRM record, every
// activity, member and workspace key operation would only ever see random ids and answer 404 (or, for activities,
// "names no record"), and their logic past that check would never be fuzzed. CRM records go into the workspace of
// the suite's key; members and keys into alice's workspace. The read-only resources (invoices, quotations, payments,
// products, subscriptions) have no create operation by design, so they are written straight into the database with
// the same function the platform's tests and seeding use.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

async function call(baseUrl, method, path, headers, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status < 200 || res.status >= 300)
    throw new Error(`seeding the partner suite: ${method} ${path} answered ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const readOnly = {
  invoices: { number: 'INV-1', currency: 'EUR', amount_total: 1000, amount_due: 250, issued_on: '2026-11-01' },
  quotations: { number: 'Q-1', currency: 'EUR', amount_total: 500 },
  payments: { amount: 250, currency: 'EUR', method: 'card' },
  products: { name: 'Contract product', sku: 'SKU-1' },
  subscriptions: { quantity: 2, currency: 'EUR', unit_price: 100 },
};

export async function seedPartner({ baseUrl, root, dataDir, key, aliceToken, aliceWorkspace, accounts, webhook, delivery }) {
  const asKey = (method, path, body) => call(baseUrl, method, path, { 'x-api-key': key, 'idempotency-key': randomUUID() }, body);
  const asAlice = (method, path, body) => call(baseUrl, method, path, { authorization: `Bearer ${aliceToken}` }, body);

  const company = (await asKey('POST', '/api/v1/partner/crm/companies', { name: 'Contract company' })).id;
  const contact = (await asKey('POST', '/api/v1/partner/crm/contacts', { full_name: 'Contract contact', company_id: company })).id;
  const lead = (await asKey('POST', '/api/v1/partner/crm/leads', { full_name: 'Contract lead' })).id;
  const deal = (await asKey('POST', '/api/v1/partner/crm/deals', { title: 'Contract deal', contact_id: contact, company_id: company })).id;
  const activity = (await asKey('POST', '/api/v1/partner/crm/activities', { activity_type: 'note', entity_type: 'lead', entity_id: lead }))
    .id;

  const { databaseUrl } = JSON.parse(await readFile(join(dataDir, 'runtime.json'), 'utf8'));
  const { insertCrmRecord } = await import(join(root, 'dist/src/core/crm/records.js'));
  const workspaceId = (await call(baseUrl, 'GET', '/api/v1/partner/crm/_me', { 'x-api-key': key })).tenant_id;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const records = {};
  // Conversations have no create operation in this convention (channels open them), so they are written straight
  // into the database, as the workspace API would open them; members of the key's workspace feed assignee_id and
  // author_id.
  const conversations = [];
  let members;
  try {
    for (const [resource, data] of Object.entries(readOnly)) {
      records[resource] = (await insertCrmRecord(db, { workspaceId, environment: 'live', resource, data })).id;
    }
    for (const channel of ['email', 'whatsapp', 'webchat']) {
      const id = randomUUID();
      await db.query(
        `insert into inbox_conversations (id, workspace_id, environment, channel, subject, status, created_at, updated_at) values ($1, $2, 'live', $3, 'Contract conversation', 'open', now(), now())`,
        [id, workspaceId, channel],
      );
      conversations.push(id);
    }
    members = (await db.query('select account_id from workspace_members where workspace_id = $1', [workspaceId])).rows.map(
      (r) => r.account_id,
    );
  } finally {
    await db.end();
  }

  // bob is a member to remove or change; carol is an account of alice's customer who is not yet one.
  await asAlice('PUT', `/api/v1/workspaces/${aliceWorkspace}/members/${accounts.bob}`, { role: 'staff' });
  const newKey = async (name) =>
    (await asAlice('POST', `/api/v1/workspaces/${aliceWorkspace}/api-keys`, { name, scopes: ['crm_leads:read'] })).id;
  const readableKeys = [await newKey('Contract read')];
  const revocableKeys = [];
  for (let i = 0; i < 4; i++) revocableKeys.push(await newKey(`Contract revoke ${i}`));

  // A plan change to free would turn off key management in alice's workspace for the rest of the run: plans are
  // changed on a workspace of her own kept for that.
  const planned = (await asAlice('POST', '/api/v1/workspaces', { name: 'Contract plans' })).id;

  const byResource = {
    leads: lead,
    deals: deal,
    contacts: contact,
    companies: company,
    activities: activity,
    ...records,
  };
  const singular = {
    leads: 'Lead',
    deals: 'Deal',
    contacts: 'Contact',
    companies: 'Company',
    activities: 'Activity',
    invoices: 'Invoice',
    quotations: 'Quotation',
    payments: 'Payment',
    products: 'Product',
    subscriptions: 'Subscription',
  };
  // Webhook endpoints of the key's workspace: the suite's own (with its ping delivery) for the operations below
  // /webhooks/{id} and /webhook-deliveries/{id}; delete and disable, after which an endpoint takes no more changes,
  // resends or replays, draw from endpoints of their own.
  const hookBody = { name: 'Contract', url: 'https://hooks.example.invalid/in', events: ['lead.created'] };
  const newHook = async () => (await asKey('POST', '/api/v1/webhooks', hookBody)).id;
  const deletableWebhooks = [];
  const disablableWebhooks = [];
  for (let i = 0; i < 6; i++) {
    deletableWebhooks.push(await newHook());
    disablableWebhooks.push(await newHook());
  }

  // Inbox: a reply in each conversation, and channels (delete draws from channels of its own).
  const messages = [];
  for (const id of conversations)
    messages.push((await asKey('POST', `/api/v1/inbox/conversations/${id}/messages`, { text: 'Contract reply' })).id);
  const newChannel = async (name) => (await asKey('POST', '/api/v1/inbox/channels', { kind: 'email', name })).id;
  const channel = await newChannel('Contract channel');
  const deletableChannels = [];
  for (let i = 0; i < 6; i++) deletableChannels.push(await newChannel(`Contract channel ${i}`));
  // Knowledge-base articles, AI agents and stored files of the key's workspace: the suite's own for reads and
  // updates, and a supply for the deletions.
  const newArticle = async () =>
    (await asKey('POST', '/api/v1/inbox/kb/articles', { title: 'Contract article', body: 'A refund takes five days.', tags: ['contract'] }))
      .id;
  const newAgent = async () => (await asKey('POST', '/api/v1/inbox/ai/agents', { name: 'Contract agent' })).id;
  const newFile = async () => {
    const res = await fetch(`${baseUrl}/api/v1/storage/files?file_name=contract.txt&content_type=text/plain`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'idempotency-key': randomUUID(), 'content-type': 'application/octet-stream' },
      body: Buffer.from('contract file'),
    });
    if (res.status !== 201) throw new Error(`seeding the partner suite: upload answered ${res.status} ${await res.text()}`);
    return (await res.json()).id;
  };
  const article = await newArticle();
  const agent = await newAgent();
  const file = await newFile();
  const deletableArticles = [];
  const deletableAgents = [];
  const deletableFiles = [];
  for (let i = 0; i < 6; i++) {
    deletableArticles.push(await newArticle());
    deletableAgents.push(await newAgent());
    deletableFiles.push(await newFile());
  }

  const operations = {};
  const coverageOperations = {};
  const inboxOperations = {
    getInboxConversation: 'conversations',
    updateInboxConversation: 'conversations',
    listInboxConversationMessages: 'conversations',
    sendInboxMessage: 'conversations',
    getInboxMessage: 'messages',
    getInboxChannel: 'channels',
    updateInboxChannel: 'channels',
    deleteInboxChannel: 'deletableChannels',
    getKbArticle: 'articles',
    updateKbArticle: 'articles',
    deleteKbArticle: 'deletableArticles',
    getAiAgent: 'agents',
    updateAiAgent: 'agents',
    deleteAiAgent: 'deletableAgents',
    getStorageFile: 'files',
    getStorageFileContent: 'files',
    deleteStorageFile: 'deletableFiles',
  };
  const firstInbox = {
    conversations: conversations[0],
    messages: messages[0],
    channels: channel,
    deletableChannels: deletableChannels[0],
    articles: article,
    deletableArticles: deletableArticles[0],
    agents: agent,
    deletableAgents: deletableAgents[0],
    files: file,
    deletableFiles: deletableFiles[0],
  };
  for (const [op, name] of Object.entries(inboxOperations)) {
    operations[op] = { 'path.id': name };
    coverageOperations[op] = { 'path.id': firstInbox[name] };
  }
  operations.createAiSuggestions = { 'body.agent_id': 'agents' };
  coverageOperations.createAiSuggestions = { 'body.agent_id': agent };
  const hookOperations = {
    getWebhookEndpoint: 'webhooks',
    updateWebhookEndpoint: 'webhooks',
    pauseWebhookEndpoint: 'webhooks',
    resumeWebhookEndpoint: 'webhooks',
    testWebhookEndpoint: 'webhooks',
    deleteWebhookEndpoint: 'deletableWebhooks',
    disableWebhookEndpoint: 'disablableWebhooks',
    getWebhookDelivery: 'deliveries',
    replayWebhookDelivery: 'deliveries',
    resendWebhookDelivery: 'deliveries',
  };
  const firstOf = {
    webhooks: webhook,
    deletableWebhooks: deletableWebhooks[0],
    disablableWebhooks: disablableWebhooks[0],
    deliveries: delivery,
  };
  for (const [op, name] of Object.entries(hookOperations)) {
    operations[op] = { 'path.id': name };
    coverageOperations[op] = { 'path.id': firstOf[name] };
  }
  const writable = ['leads', 'deals', 'contacts', 'companies'];
  for (const [resource, id] of Object.entries(byResource)) {
    for (const verb of writable.includes(resource) ? ['get', 'update'] : ['get']) {
      operations[`${verb}${singular[resource]}`] = { 'path.id': resource };
      coverageOperations[`${verb}${singular[resource]}`] = { 'path.id': id };
    }
  }
  // entity_id must name a record of entity_type: half of the draws name a lead as a lead (the other half stay free).
  operations.createActivity = { 'body.entity_type': 'leadType', 'body.entity_id': 'leads' };
  operations.revokeApiKey = { 'path.key_id': 'revocableKeys' };
  coverageOperations.revokeApiKey = { 'path.key_id': revocableKeys[0] };
  operations.setWorkspacePlan = { 'path.workspace_id': 'plannedWorkspaces' };
  coverageOperations.setWorkspacePlan = { 'path.workspace_id': planned };
  return {
    dictionaries: {
      ...Object.fromEntries(Object.entries(byResource).map(([resource, id]) => [resource, [id]])),
      entities: [lead, deal, contact, company],
      readableKeys,
      revocableKeys,
      accounts: [accounts.bob, accounts.carol],
      plannedWorkspaces: [planned],
      leadType: ['lead'],
      webhooks: [webhook],
      deletableWebhooks,
      disablableWebhooks,
      deliveries: [delivery],
      webhookUrls: ['https://hooks.example.invalid/in'],
      conversations,
      messages,
      channels: [channel],
      deletableChannels,
      members,
      articles: [article],
      deletableArticles,
      agents: [agent],
      deletableAgents,
      files: [file],
      deletableFiles,
    },
    parameters: {
      'body.entity_id': 'entities',
      'body.company_id': 'companies',
      'body.contact_id': 'contacts',
      'path.key_id': 'readableKeys',
      'path.account_id': 'accounts',
      'body.url': 'webhookUrls',
      'body.assignee_id': 'members',
      'body.author_id': 'members',
      'query.conversation_id': 'conversations',
      'body.kb_article_ids[*]': 'articles',
    },
    operations,
    // A case that would delete or disable the suite's endpoint (its id reused from an earlier answer) is not sent.
    protect: {
      setWorkspacePlan: [{ workspace_id: [aliceWorkspace] }],
      deleteWebhookEndpoint: [{ id: [webhook] }],
      disableWebhookEndpoint: [{ id: [webhook] }],
      deleteKbArticle: [{ id: [article] }],
      deleteAiAgent: [{ id: [agent] }],
      deleteStorageFile: [{ id: [file] }],
      deleteInboxChannel: [{ id: [channel] }],
    },
    // Ids for the positive cases of the coverage phase (see hooks.py).
    coverage: {
      parameters: {
        'path.workspace_id': aliceWorkspace,
        'path.key_id': readableKeys[0],
        'path.account_id': accounts.bob,
        'body.entity_id': lead,
        'body.company_id': company,
        'body.contact_id': contact,
        'body.scopes[*]': 'crm_leads:read',
        'body.url': 'https://hooks.example.invalid/in',
        'body.assignee_id': members[0],
        'body.author_id': members[0],
        'body.kb_article_ids[*]': article,
      },
      operations: coverageOperations,
    },
  };
}
