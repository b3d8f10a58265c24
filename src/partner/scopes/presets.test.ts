// Every preset of the catalogue, one row each: a key made with the preset (through key creation, as a workspace
// administrator makes it) does what its scopes say on served paths, and is refused (403 scope_required naming the
// scope) outside them.
import { randomUUID } from 'node:crypto';
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { insertConversation } from '../../../test/support/inbox.js';
import { expectPartnerError, keyHeaders } from '../../../test/helpers/partner-expect.js';
import { scopePresets } from './catalogue.js';

type Res = Awaited<ReturnType<typeof call>>;

/** What the calls below need: records of the workspace to read and change. */
interface World {
  conversation: string;
  lead: string;
}

/** One call with the scope it needs and the status it answers when the scope is there. */
interface Probe {
  scope: string;
  ok: number;
  send(key: string, world: World): Promise<Res>;
}

interface PresetRow {
  /** Calls the preset's key may make. */
  allowed: Probe[];
  /** Calls outside its scopes: each is 403 scope_required naming the probe's scope. */
  refused: Probe[];
}

let platform: TestPlatform;
let ws: TestWorkspace;
let world: World;

const send = (method: string, path: string, key: string, body?: unknown) =>
  call(platform.partnerUrl, method, path, {
    headers: keyHeaders(key, method === 'GET' ? undefined : randomUUID()),
    ...(body !== undefined ? { body } : {}),
  });
const get = (scope: string, path: string): Probe => ({ scope, ok: 200, send: (key) => send('GET', path, key) });

const probes = {
  listConversations: get('conversations:read', '/api/v1/inbox/conversations'),
  getConversation: {
    scope: 'conversations:read',
    ok: 200,
    send: (key, w) => send('GET', `/api/v1/inbox/conversations/${w.conversation}`, key),
  } satisfies Probe,
  inboxReport: get('conversations:read', '/api/v1/reports/inbox?from=2026-11-01&to=2026-11-30'),
  updateConversation: {
    scope: 'conversations:write',
    ok: 200,
    send: (key, w) => send('PATCH', `/api/v1/inbox/conversations/${w.conversation}`, key, { status: 'open' }),
  } satisfies Probe,
  listMessages: get('messages:read', '/api/v1/inbox/messages'),
  listConversationMessages: {
    scope: 'messages:read',
    ok: 200,
    send: (key, w) => send('GET', `/api/v1/inbox/conversations/${w.conversation}/messages`, key),
  } satisfies Probe,
  sendMessage: {
    scope: 'messages:send',
    ok: 201,
    send: (key, w) => send('POST', `/api/v1/inbox/conversations/${w.conversation}/messages`, key, { text: 'Thanks!' }),
  } satisfies Probe,
  listChannels: get('channels:read', '/api/v1/inbox/channels'),
  createChannel: {
    scope: 'channels:manage',
    ok: 201,
    send: (key) => send('POST', '/api/v1/inbox/channels', key, { kind: 'email', name: 'Mail' }),
  } satisfies Probe,
  aiSettings: get('ai:read', '/api/v1/inbox/ai/settings'),
  aiSuggestions: {
    scope: 'ai:invoke',
    ok: 200,
    send: (key) => send('POST', '/api/v1/inbox/ai/suggestions', key, { text: 'How long does a refund take?' }),
  } satisfies Probe,
  listAgents: get('agents:read', '/api/v1/inbox/ai/agents'),
  listArticles: get('kb:read', '/api/v1/inbox/kb/articles'),
  searchArticles: get('kb:read', '/api/v1/inbox/kb/search?q=refund'),
  createArticle: {
    scope: 'kb:write',
    ok: 201,
    send: (key) => send('POST', '/api/v1/inbox/kb/articles', key, { title: 'Refunds', body: 'A refund takes five days.' }),
  } satisfies Probe,
  listWebhooks: get('webhooks:read', '/api/v1/webhooks'),
  listDeliveries: get('webhooks:read', '/api/v1/webhook-deliveries'),
  createWebhook: {
    scope: 'webhooks:manage',
    ok: 201,
    send: (key) => send('POST', '/api/v1/webhooks', key, { name: 'x', url: 'https://hooks.example.com/x', events: ['lead.created'] }),
  } satisfies Probe,
  listLeads: get('crm_leads:read', '/api/v1/partner/crm/leads'),
  createLead: {
    scope: 'crm_leads:write',
    ok: 201,
    send: (key) => send('POST', '/api/v1/partner/crm/leads', key, { full_name: 'Ada Lovelace' }),
  } satisfies Probe,
  updateLead: {
    scope: 'crm_leads:write',
    ok: 200,
    send: (key, w) => send('PATCH', `/api/v1/partner/crm/leads/${w.lead}`, key, { phone: '+15550100' }),
  } satisfies Probe,
  listDeals: get('crm_deals:read', '/api/v1/partner/crm/deals'),
  createDeal: {
    scope: 'crm_deals:write',
    ok: 201,
    send: (key) => send('POST', '/api/v1/partner/crm/deals', key, { title: 'Renewal' }),
  } satisfies Probe,
  listContacts: get('crm_contacts:read', '/api/v1/partner/crm/contacts'),
  createContact: {
    scope: 'crm_contacts:write',
    ok: 201,
    send: (key) => send('POST', '/api/v1/partner/crm/contacts', key, { full_name: 'Grace Hopper' }),
  } satisfies Probe,
  listCompanies: get('crm_companies:read', '/api/v1/partner/crm/companies'),
  createCompany: {
    scope: 'crm_companies:write',
    ok: 201,
    send: (key) => send('POST', '/api/v1/partner/crm/companies', key, { name: 'Analytical Engines' }),
  } satisfies Probe,
  listActivities: get('crm_activities:read', '/api/v1/partner/crm/activities'),
  createActivity: {
    scope: 'crm_activities:write',
    ok: 201,
    send: (key, w) =>
      send('POST', '/api/v1/partner/crm/activities', key, { activity_type: 'call', entity_type: 'lead', entity_id: w.lead }),
  } satisfies Probe,
  listInvoices: get('crm_invoices:read', '/api/v1/partner/crm/invoices'),
  listQuotations: get('crm_quotations:read', '/api/v1/partner/crm/quotations'),
  listPayments: get('crm_payments:read', '/api/v1/partner/crm/payments'),
  listProducts: get('crm_products:read', '/api/v1/partner/crm/products'),
  listSubscriptions: get('crm_subscriptions:read', '/api/v1/partner/crm/subscriptions'),
} satisfies Record<string, Probe>;

const p = probes;
const presetRows: Record<string, PresetRow> = {
  'Read-only inbox': {
    allowed: [p.listConversations, p.getConversation, p.inboxReport, p.listMessages, p.listConversationMessages],
    refused: [p.updateConversation, p.sendMessage, p.listChannels, p.listLeads, p.listWebhooks],
  },
  'Send message': {
    allowed: [p.listConversations, p.getConversation, p.listMessages, p.sendMessage],
    refused: [p.updateConversation, p.listChannels, p.createChannel, p.listLeads],
  },
  'Conversations + AI': {
    allowed: [p.listConversations, p.updateConversation, p.listMessages, p.sendMessage, p.inboxReport, p.aiSettings, p.aiSuggestions],
    refused: [p.listChannels, p.listAgents, p.listArticles, p.listLeads, p.listWebhooks],
  },
  'KB read': {
    allowed: [p.listArticles, p.searchArticles],
    refused: [p.createArticle, p.aiSuggestions, p.listConversations, p.listMessages, p.listChannels, p.listLeads, p.listWebhooks],
  },
  'Webhooks read': {
    allowed: [p.listWebhooks, p.listDeliveries],
    refused: [p.createWebhook, p.listConversations, p.listLeads],
  },
  'CRM read all': {
    allowed: [p.listLeads, p.listDeals, p.listContacts, p.listCompanies, p.listActivities],
    refused: [p.createLead, p.createDeal, p.createActivity, p.listInvoices, p.listConversations],
  },
  'CRM lead read and write': {
    allowed: [p.listLeads, p.createLead, p.updateLead],
    refused: [p.listDeals, p.createDeal, p.listContacts, p.listConversations],
  },
  'CRM sales full': {
    allowed: [
      p.listLeads,
      p.createLead,
      p.updateLead,
      p.listDeals,
      p.createDeal,
      p.listContacts,
      p.createContact,
      p.listCompanies,
      p.createCompany,
      p.listActivities,
      p.createActivity,
    ],
    refused: [p.listInvoices, p.listProducts, p.listConversations, p.listWebhooks],
  },
  'CRM finance read': {
    allowed: [p.listInvoices, p.listQuotations, p.listPayments],
    refused: [p.listProducts, p.listSubscriptions, p.listLeads, p.createLead, p.listConversations],
  },
};

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] });
  ws = await testWorkspace(platform);
  const admin = (await ws.key(['crm_leads:*'])).key;
  world = {
    conversation: await insertConversation(platform.db, { workspaceId: ws.id }),
    lead: (await send('POST', '/api/v1/partner/crm/leads', admin, { full_name: 'Fixture lead' })).body.id,
  };
});
afterAll(async () => {
  await platform?.stop();
});

/** A key made with the preset through key creation, as the workspace's owner makes it. */
async function presetKey(preset: string): Promise<string> {
  const res = await call(platform.partnerUrl, 'POST', `/api/v1/workspaces/${ws.id}/api-keys`, {
    token: ws.owner.token,
    body: { name: preset, preset },
  });
  if (res.status !== 201) throw new Error(`creating a key with ${preset}: ${res.status} ${JSON.stringify(res.body)}`);
  expect(res.body.scopes).toEqual(scopePresets[preset]);
  return res.body.key;
}

test('every preset of the catalogue has a row, and every row has allowed calls', () => {
  expect(Object.keys(presetRows).sort()).toEqual(Object.keys(scopePresets).sort());
  for (const [name, row] of Object.entries(presetRows)) expect({ name, allowed: row.allowed.length > 0 }).toEqual({ name, allowed: true });
});

test.each(Object.keys(scopePresets))('%s: allowed where its scopes say, 403 scope_required elsewhere', async (preset) => {
  const row = presetRows[preset]!;
  const key = await presetKey(preset);
  for (const probe of row.allowed) {
    const res = await probe.send(key, world);
    const what = `${preset} on a ${probe.scope} call`;
    expect({ what, status: res.status, body: res.body }).toMatchObject({ what, status: probe.ok });
  }
  for (const probe of row.refused) expectPartnerError(await probe.send(key, world), 403, 'scope_required', { scope: probe.scope });
});

// The presets as the seed document's table lists them, written out here rather than read from the catalogue, so that a
// change of the catalogue that departs from the document fails.
const seedPresets: Record<string, string[]> = {
  'Read-only inbox': ['conversations:read', 'messages:read'],
  'Send message': ['conversations:read', 'messages:read', 'messages:send'],
  'Conversations + AI': ['conversations:*', 'messages:*', 'ai:read', 'ai:invoke'],
  'KB read': ['kb:read'],
  'Webhooks read': ['webhooks:read'],
  'CRM read all': ['crm_leads:read', 'crm_deals:read', 'crm_contacts:read', 'crm_companies:read', 'crm_activities:read'],
  'CRM lead read and write': ['crm_leads:read', 'crm_leads:write'],
  'CRM sales full': ['crm_leads:*', 'crm_deals:*', 'crm_contacts:*', 'crm_companies:*', 'crm_activities:*'],
  'CRM finance read': ['crm_invoices:read', 'crm_quotations:read', 'crm_payments:read'],
};

test("the presets are exactly the seed document's, by name and scopes, and a key made with one holds those scopes", async () => {
  expect(Object.keys(scopePresets).sort()).toEqual(Object.keys(seedPresets).sort());
  for (const [name, scopes] of Object.entries(seedPresets)) {
    const res = await call(platform.partnerUrl, 'POST', `/api/v1/workspaces/${ws.id}/api-keys`, {
      token: ws.owner.token,
      body: { name: `seed ${name}`, preset: name },
    });
    expect({ name, status: res.status, scopes: [...(res.body.scopes as string[])].sort() }).toEqual({
      name,
      status: 201,
      scopes: [...scopes].sort(),
    });
  }
});
