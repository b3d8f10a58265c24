// Drives the real partner listener through the SDK: every call below goes over HTTP to the platform the test run
// starts, and every result is the SDK's typed value (or its typed PartnerApiError).
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { alternate } from '../../../test/helpers/data.js';
import {
  adminOperationRoutes,
  byteResponseOperations,
  createPartnerAdminClient,
  createPartnerClient,
  keyOperationRoutes,
  PartnerApiError,
  type PartnerClient,
  type PartnerClientOptions,
  type Schemas,
} from '../src/index.js';

let platform: TestPlatform;
let ws: TestWorkspace;
let salesKey: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] });
  ws = await testWorkspace(platform);
  salesKey = (await ws.key(['crm_leads:*', 'crm_deals:*', 'crm_contacts:*', 'crm_companies:*', 'crm_activities:*'])).key;
});
afterAll(async () => {
  await platform?.stop();
});

const clientFor = (apiKey: string, options: Partial<PartnerClientOptions> = {}): PartnerClient =>
  createPartnerClient({ baseUrl: platform.partnerUrl, apiKey, sleep: async () => {}, ...options });

/** Resolves to the PartnerApiError the promise rejects with; fails the test when it resolves or throws another. */
async function apiError(promise: Promise<unknown>): Promise<PartnerApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PartnerApiError) return error;
    throw error;
  }
  throw new Error('expected a PartnerApiError, the call succeeded');
}

/** A fetch that counts the requests it sends and records their Idempotency-Key headers. */
function recordingFetch(): {
  fetch: (request: Request) => Promise<Response>;
  requests: { method: string; url: string; key: string | null }[];
} {
  const requests: { method: string; url: string; key: string | null }[] = [];
  return {
    requests,
    fetch: (request) => {
      requests.push({ method: request.method, url: request.url, key: request.headers.get('idempotency-key') });
      return fetch(request);
    },
  };
}

type Route = { method: string; path: string };
type DocumentOperation = Route & { operationId: string; schemes: string[] };

/** Every operation of generated/openapi/partner.json with its route and the names of its security schemes. */
async function documentOperations(): Promise<DocumentOperation[]> {
  const doc = JSON.parse(await readFile(new URL('../../../generated/openapi/partner.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string; security?: Record<string, unknown>[] }>>;
  };
  const ops: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op.operationId) continue;
      ops.push({ operationId: op.operationId, method, path, schemes: (op.security ?? []).flatMap((s) => Object.keys(s)) });
    }
  }
  return ops;
}

/** The routes by operationId, grouped by each operation's (first) security scheme. */
function bySecurityScheme(ops: DocumentOperation[]): Record<string, Record<string, Route>> {
  const bySecurity: Record<string, Record<string, Route>> = {};
  for (const op of ops) (bySecurity[op.schemes[0]!] ??= {})[op.operationId] = { method: op.method, path: op.path };
  return bySecurity;
}

/** The operationIds, in document order, whose 2xx response has a body that is not JSON. */
async function nonJsonOperations(): Promise<string[]> {
  const doc = JSON.parse(await readFile(new URL('../../../generated/openapi/partner.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> }>>;
  };
  return Object.values(doc.paths).flatMap((item) =>
    Object.values(item)
      .filter((op) =>
        Object.entries(op.responses).some(([status, r]) => status.startsWith('2') && r.content && !('application/json' in r.content)),
      )
      .map((op) => op.operationId),
  );
}

describe('route tables', () => {
  // The typecheck proves each table covers its operations of the generated types; this proves the split by
  // credential agrees with the security of the published document the types came from.
  test('match generated/openapi/partner.json operation by operation, split by security scheme', async () => {
    const ops = await documentOperations();
    expect(ops.map((op) => [op.operationId, op.schemes.length])).toEqual(ops.map((op) => [op.operationId, 1]));
    const bySecurity = bySecurityScheme(ops);
    const plain = (table: Record<string, Route>) =>
      Object.fromEntries(Object.entries(table).map(([id, r]) => [id, { method: r.method, path: r.path }]));
    expect(plain(keyOperationRoutes)).toEqual(bySecurity['api-key']);
    expect(plain(adminOperationRoutes)).toEqual(bySecurity['bearer-jwt']);
    expect(Object.keys(bySecurity).sort()).toEqual(['api-key', 'bearer-jwt']);
    expect(Object.keys(keyOperationRoutes)).toHaveLength(78);
  });

  test('byteResponseOperations are exactly the operations whose 2xx body is not JSON', async () => {
    expect([...byteResponseOperations]).toEqual(await nonJsonOperations());
  });
});

describe('knowledge base and storage through the typed methods', () => {
  test('an article found by search; a file uploaded as bytes and read back as an ArrayBuffer', async () => {
    const client = clientFor((await ws.key(['kb:*'])).key);
    const article = await client.createKbArticle({ body: { title: 'Refunds', body: 'A refund takes five days.' } });
    const found = await client.searchKbArticles({ query: { q: 'refund' } });
    expect(found.data.map((m) => m.article.id)).toEqual([article.id]);

    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const file = await client.uploadStorageFile({ query: { file_name: 'b.bin', content_type: 'application/x-test' }, body: bytes });
    expect(file).toMatchObject({ object: 'storage.file', size: 5, content_type: 'application/x-test' });
    const content = await client.getStorageFileContent({ path: { id: file.id } });
    expect(new Uint8Array(content as ArrayBuffer)).toEqual(bytes);
    const missing = await apiError(client.getStorageFile({ path: { id: article.id } }));
    expect(missing.code).toBe('file_not_found');
  });
});

describe('leads through the typed methods', () => {
  test('create, get, update and list a lead, with X-Api-Key and an Idempotency-Key only on writes', async () => {
    const recorder = recordingFetch();
    const crm = clientFor(salesKey, { fetch: recorder.fetch });
    const name = `Ada ${randomUUID().slice(0, 8)}`;

    const created = await crm.callWithResponse('createLead', { body: { full_name: name, email: 'ada@example.com', source: 'website' } });
    expect(created.response.status).toBe(201);
    expect(created.attempts).toBe(1);
    const lead: Schemas['Crm.Lead'] = created.data;
    expect(lead).toMatchObject({
      object: 'crm.lead',
      full_name: name,
      email: 'ada@example.com',
      source: 'website',
      status: 'new',
      phone: null,
    });
    expect(created.response.headers.get('location')).toContain(lead.id);

    const fetched = await crm.getLead({ path: { id: lead.id } });
    expect(fetched).toEqual(lead);

    const updated = await crm.updateLead({ path: { id: lead.id }, body: { status: 'qualified', email: null } });
    expect(updated).toMatchObject({ id: lead.id, status: 'qualified', email: null, full_name: name });
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(lead.updated_at));

    const qualified = await crm.listLeads({ query: { status: 'qualified', limit: 100 } });
    expect(qualified.object).toBe('list');
    expect(qualified.data.map((l) => l.id)).toContain(lead.id);
    expect(qualified.data.every((l) => l.status === 'qualified')).toBe(true);
    const fresh = await crm.listLeads({ query: { status: 'new', limit: 100 } });
    expect(fresh.data.map((l) => l.id)).not.toContain(lead.id);

    // The writes carried distinct generated keys; the reads carried none.
    const keys = recorder.requests.map((r) => [r.method, r.key] as const);
    expect(keys.map(([m]) => m)).toEqual(['POST', 'GET', 'PATCH', 'GET', 'GET']);
    const [post, , patch] = keys;
    expect(post![1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(patch![1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(post![1]).not.toBe(patch![1]);
    expect(keys.filter(([m]) => m === 'GET').every(([, k]) => k === null)).toBe(true);
  });

  test('the other resources and the identity answer through their methods', async () => {
    const crm = clientFor(salesKey);
    const company = await crm.createCompany({ body: { name: 'Acme', domain: 'acme.example' } });
    const contact = await crm.createContact({ body: { full_name: 'Grace', company_id: company.id } });
    const deal = await crm.createDeal({
      body: { title: 'Big one', amount: 125000, currency: 'EUR', company_id: company.id, contact_id: contact.id },
    });
    const activity = await crm.createActivity({
      body: { activity_type: 'call', entity_type: 'deal', entity_id: deal.id, subject: 'Kick-off' },
    });
    expect(activity).toMatchObject({ object: 'crm.activity', entity_id: deal.id, activity_type: 'call' });
    expect(await crm.getActivity({ path: { id: activity.id } })).toEqual(activity);
    expect((await crm.updateDeal({ path: { id: deal.id }, body: { status: 'won' } })).status).toBe('won');
    expect((await crm.updateContact({ path: { id: contact.id }, body: { job_title: 'CTO' } })).job_title).toBe('CTO');
    expect((await crm.updateCompany({ path: { id: company.id }, body: { industry: 'Tools' } })).industry).toBe('Tools');

    const me = await crm.getApiIdentity();
    expect(me).toMatchObject({ object: 'crm.api_identity', tenant_id: ws.id, actor_type: 'api_key', key_prefix: salesKey.slice(0, 8) });
    const resources = await crm.listCrmResources();
    expect(resources.data.map((r) => r.id)).toEqual(expect.arrayContaining(['leads', 'deals', 'activities', 'invoices']));
    const catalogue = await crm.getScopeCatalogue();
    expect(catalogue.presets.map((p) => p.id)).toContain('CRM sales full');
  });
});

describe('pagination', () => {
  test('paginate follows next_cursor across several pages; pages yields each envelope', async () => {
    const own = await testWorkspace(platform);
    const recorder = recordingFetch();
    const crm = clientFor((await own.key(['crm_leads:*'])).key, { fetch: recorder.fetch });
    const created: string[] = [];
    for (let i = 0; i < 7; i++)
      created.push((await crm.createLead({ body: { full_name: `Lead ${i}`, status: alternate(i, 'new', 'contacted') } })).id);
    recorder.requests.length = 0;

    const seen: string[] = [];
    for await (const lead of crm.paginate('listLeads', { limit: 3 })) seen.push(lead.id);
    expect(seen).toEqual([...created].reverse());
    expect(recorder.requests).toHaveLength(3);
    expect(new URL(recorder.requests[0]!.url).searchParams.get('cursor')).toBeNull();
    expect(new URL(recorder.requests[1]!.url).searchParams.get('cursor')).toBeTruthy();

    const fresh: string[] = [];
    for await (const lead of crm.paginate('listLeads', { status: 'new', limit: 2 })) {
      expect(lead.status).toBe('new');
      fresh.push(lead.id);
    }
    expect(fresh).toEqual(created.filter((_, i) => i % 2 === 0).reverse());

    const shapes: [number, boolean, boolean][] = [];
    for await (const page of crm.pages('listLeads', { limit: 3 }))
      shapes.push([page.data.length, page.has_more, page.next_cursor !== null]);
    expect(shapes).toEqual([
      [3, true, true],
      [3, true, true],
      [1, false, false],
    ]);

    // An empty list is one page.
    const none: unknown[] = [];
    for await (const lead of crm.paginate('listLeads', { status: 'converted' })) none.push(lead);
    expect(none).toEqual([]);
  });

  test('a failed page throws the typed error', async () => {
    const crm = clientFor((await ws.key(['crm_leads:read'])).key);
    const walk = async () => {
      for await (const deal of crm.paginate('listDeals')) void deal;
    };
    await expect(walk()).rejects.toMatchObject({
      name: 'PartnerApiError',
      status: 403,
      code: 'scope_required',
      details: { scope: 'crm_deals:read' },
    });
  });
});

describe('errors', () => {
  test('a missing lead is 404 lead_not_found with the request id of the body and the header', async () => {
    const error = await apiError(clientFor(salesKey).getLead({ path: { id: randomUUID() } }));
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({ status: 404, code: 'lead_not_found' });
    expect(error.message).toEqual(expect.any(String));
    expect(error.details).toEqual(expect.any(Object));
    expect(error.requestId).toBeTruthy();
    expect(error.requestId).toBe(error.response.headers.get('x-request-id'));
    expect(error.retryAfter).toBeUndefined();
    // 404 is not retried.
  });

  test('a key without the scope gets 403 scope_required naming it; a wrong key 401 invalid_api_key', async () => {
    const reader = clientFor((await ws.key(['crm_leads:read'])).key);
    const denied = await apiError(reader.createLead({ body: { full_name: 'Nope' } }));
    expect(denied).toMatchObject({ status: 403, code: 'scope_required', details: { scope: 'crm_leads:write' } });
    expect(denied.requestId).toBe(denied.response.headers.get('x-request-id'));

    const wrong = await apiError(clientFor('live_notarealkey').getApiIdentity());
    expect(wrong).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  test('an unknown body field is 400 bad_input with the field in details', async () => {
    const crm = clientFor(salesKey);
    // The SDK's types refuse it, so it is forced through as a JavaScript caller could send it.
    const error = await apiError(crm.createLead({ body: { full_name: 'x', nickname: 'y' } as never }));
    expect(error).toMatchObject({ status: 400, code: 'bad_input' });
    expect(error.details.field).toBe('body.nickname');
  });

  test('a workspace without external API access is refused whatever the key', async () => {
    const free = await testWorkspace(platform, { plan: 'free' });
    const error = await apiError(clientFor((await free.key(['crm_leads:read'])).key).listLeads());
    expect(error).toMatchObject({ status: 403, code: 'external_api_disabled' });
  });
});

/**
 * A fetch that records each request's Idempotency-Key and loses the answer to the first POST: the server created
 * the record and answered; the connection dies before the answer arrives.
 */
function losingFirstPostAnswer(): { fetch: (request: Request) => Promise<Response>; sent: (string | null)[]; dropped: () => number } {
  const sent: (string | null)[] = [];
  let dropped = 0;
  return {
    sent,
    dropped: () => dropped,
    fetch: async (request) => {
      sent.push(request.headers.get('idempotency-key'));
      const response = await fetch(request);
      if (request.method === 'POST' && dropped === 0) {
        dropped++;
        await response.text();
        throw new TypeError('fetch failed');
      }
      return response;
    },
  };
}

describe('idempotency', () => {
  test('a write whose answer is lost is retried with the same key, and only one record exists', async () => {
    const own = await testWorkspace(platform);
    const apiKey = (await own.key(['crm_leads:*'])).key;
    const lossy = losingFirstPostAnswer();
    const crm = clientFor(apiKey, { fetch: lossy.fetch });
    const name = `Lost answer ${randomUUID().slice(0, 8)}`;
    const result = await crm.callWithResponse('createLead', { body: { full_name: name } });
    const { sent } = lossy;
    expect(lossy.dropped()).toBe(1);
    expect(result.attempts).toBe(2);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBeTruthy();
    expect(sent[1]).toBe(sent[0]);
    expect(result.idempotencyKey).toBe(sent[0]);
    expect(result.data.full_name).toBe(name);

    const all: Schemas['Crm.Lead'][] = [];
    for await (const lead of clientFor(apiKey).paginate('listLeads')) all.push(lead);
    expect(all.filter((l) => l.full_name === name).map((l) => l.id)).toEqual([result.data.id]);
  });

  test("a caller's own key repeats the first result; the same key with other content is 409 idempotency_conflict", async () => {
    const own = await testWorkspace(platform);
    const crm = clientFor((await own.key(['crm_leads:*'])).key);
    const idempotencyKey = `order-${randomUUID()}`;
    const first = await crm.createLead({ body: { full_name: 'Once' } }, { idempotencyKey });
    const again = await crm.callWithResponse('createLead', { body: { full_name: 'Once' } }, { idempotencyKey });
    expect(again.data).toEqual(first);
    expect(again.idempotencyKey).toBe(idempotencyKey);
    const conflict = await apiError(crm.createLead({ body: { full_name: 'Twice' } }, { idempotencyKey }));
    expect(conflict).toMatchObject({ status: 409, code: 'idempotency_conflict' });

    // Without a key of their own, two identical calls are two logical calls: two records.
    await crm.createLead({ body: { full_name: 'Dup' } });
    await crm.createLead({ body: { full_name: 'Dup' } });
    const list = await crm.listLeads({ query: { limit: 100 } });
    expect(list.data.map((l) => l.full_name).sort()).toEqual(['Dup', 'Dup', 'Once']);
  });

  test('the client-level generator makes the keys', async () => {
    const own = await testWorkspace(platform);
    const made: string[] = [];
    const crm = clientFor((await own.key(['crm_leads:*'])).key, {
      idempotencyKey: () => (made.push(`k_${made.length}_${randomUUID()}`), made.at(-1)!),
    });
    const lead = await crm.callWithResponse('createLead', { body: { full_name: 'Generated' } });
    expect(made).toHaveLength(1);
    expect(lead.idempotencyKey).toBe(made[0]);
    await crm.getLead({ path: { id: lead.data.id } });
    expect(made).toHaveLength(1);
  });
});

describe('administration client', () => {
  test('a user creates a workspace; a platform admin enables the API; the owner issues a key the key client uses', async () => {
    const owner = await (await platform.tenant()).account();
    const admin = createPartnerAdminClient({ baseUrl: platform.partnerUrl, token: owner.token });
    const platformAdmin = createPartnerAdminClient({ baseUrl: platform.partnerUrl, getToken: () => platform.adminToken() });

    const created = await admin.callWithResponse('createWorkspace', { body: { name: 'SDK workspace' } });
    expect(created.response.status).toBe(201);
    const workspace = created.data;
    expect(workspace).toMatchObject({
      object: 'workspace',
      name: 'SDK workspace',
      plan: 'free',
      external_api_enabled: false,
      owner_id: owner.id,
      my_role: 'owner',
    });
    expect(await admin.getWorkspace({ path: { workspace_id: workspace.id } })).toEqual(workspace);

    const mine: string[] = [];
    for await (const w of admin.paginate('listWorkspaces', { query: { limit: 1 } })) mine.push(w.id);
    expect(mine).toEqual([workspace.id]);
    const plans = await admin.listPlans();
    expect(plans.data.find((p) => p.id === 'business')?.external_api).toBe(true);

    // Only platform administrators change plans.
    const denied = await apiError(admin.setWorkspacePlan({ path: { workspace_id: workspace.id }, body: { plan: 'business' } }));
    expect(denied).toMatchObject({ status: 403 });
    const upgraded = await platformAdmin.setWorkspacePlan({ path: { workspace_id: workspace.id }, body: { plan: 'business' } });
    expect(upgraded).toMatchObject({ plan: 'business', external_api_enabled: true });

    const issued = await admin.createApiKey({ path: { workspace_id: workspace.id }, body: { name: 'ERP', preset: 'CRM sales full' } });
    expect(issued.key.startsWith(issued.prefix)).toBe(true);
    const crm = clientFor(issued.key);
    expect(await crm.getApiIdentity()).toMatchObject({ tenant_id: workspace.id, key_prefix: issued.prefix });
    expect(await crm.getCurrentApiKey()).toMatchObject({ id: issued.id, status: 'active' });

    const keys: string[] = [];
    for await (const k of admin.paginate('listApiKeys', { path: { workspace_id: workspace.id } })) keys.push(k.id);
    expect(keys).toEqual([issued.id]);

    // The key revokes itself; it dies at once.
    const revoked = await crm.revokeCurrentApiKey({ body: { confirm: true } });
    expect(revoked).toMatchObject({ id: issued.id, status: 'revoked' });
    expect(await apiError(crm.getApiIdentity())).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(await admin.getApiKey({ path: { workspace_id: workspace.id, key_id: issued.id } })).toMatchObject({ status: 'revoked' });
  });

  test('errors of the administration client are PartnerApiError too', async () => {
    const owner = await (await platform.tenant()).account();
    const admin = createPartnerAdminClient({ baseUrl: platform.partnerUrl, token: owner.token });
    const missing = await apiError(admin.getWorkspace({ path: { workspace_id: randomUUID() } }));
    expect(missing).toMatchObject({ status: 404, code: 'workspace_not_found' });
    expect(missing.requestId).toBe(missing.response.headers.get('x-request-id'));
    const anonymous = await apiError(createPartnerAdminClient({ baseUrl: platform.partnerUrl, token: '' }).listPlans());
    expect(anonymous.status).toBe(401);
  });
});
