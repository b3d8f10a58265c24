// The partner CRM API over the real listener with real API keys: create/get/update of the writable resources,
// validation, not-found and partitioning (workspace and environment), references, the read-only resources and the
// three descriptive endpoints.
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { expectPartnerError as expectSharedError } from '../../../test/helpers/partner-expect.js';
import { scopeCatalogue, scopePresets } from '../scopes/catalogue.js';
import { insertCrmRecord } from '../../core/crm/records.js';
import { crmResources } from '../../core/crm/resources.js';

const crm = '/api/v1/partner/crm';
const allScopes = [
  'crm_leads:*',
  'crm_deals:*',
  'crm_contacts:*',
  'crm_companies:*',
  'crm_activities:*',
  'crm_invoices:read',
  'crm_quotations:read',
  'crm_payments:read',
  'crm_products:read',
  'crm_subscriptions:read',
];

let platform: TestPlatform;
let base: string;
const clock = new ManualClock(new Date('2026-11-22T08:00:00.000Z'));
let ws: TestWorkspace;
let api: Client;
let other: Client;
let otherWs: TestWorkspace;
let testEnv: Client;

type Res = Awaited<ReturnType<typeof call>>;
interface Client {
  get(path: string): Promise<Res>;
  post(path: string, body: unknown): Promise<Res>;
  patch(path: string, body: unknown): Promise<Res>;
}

function client(key: string): Client {
  const headers = () => ({ 'x-api-key': key, 'idempotency-key': randomUUID() });
  return {
    get: (path) => call(base, 'GET', `${crm}${path}`, { headers: { 'x-api-key': key } }),
    post: (path, body) => call(base, 'POST', `${crm}${path}`, { headers: headers(), body }),
    patch: (path, body) => call(base, 'PATCH', `${crm}${path}`, { headers: headers(), body }),
  };
}

function expectStatus(res: Res, status: number): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}

function expectPartnerError(res: Res, status: number, code: string, field?: string): void {
  expectSharedError(res, status, code, field !== undefined ? { field } : undefined);
}

async function created(res: Res, resource: string): Promise<any> {
  expectStatus(res, 201);
  expect(res.headers.get('location')).toBe(`${crm}/${resource}/${res.body.id}`);
  return res.body;
}

const rowCount = async (workspaceId: string) =>
  Number((await platform.db.query('select count(*) as n from crm_records where workspace_id = $1', [workspaceId])).rows[0].n);

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] }, clock);
  base = platform.partnerUrl;
  ws = await testWorkspace(platform);
  otherWs = await testWorkspace(platform);
  api = client((await ws.key(allScopes)).key);
  other = client((await otherWs.key(allScopes)).key);
  testEnv = client((await ws.key(allScopes, { environment: 'test' })).key);
});
afterAll(async () => {
  await platform?.stop();
});

describe('leads', () => {
  test('create: 201 with Location, defaults and every absent optional field as null; get returns the same object', async () => {
    const lead = await created(await api.post('/leads', { full_name: 'Ada Lovelace', email: 'ada@example.com' }), 'leads');
    expect(lead).toEqual({
      object: 'crm.lead',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: null,
      source: null,
      status: 'new',
      company_name: null,
      notes: null,
    });
    const got = await api.get(`/leads/${lead.id}`);
    expectStatus(got, 200);
    expect(got.body).toEqual(lead);
  });

  test('update changes only the given fields, null clears one, updated_at moves and the status column follows', async () => {
    const lead = await created(await api.post('/leads', { full_name: 'Grace', email: 'g@example.com', source: 'fair' }), 'leads');
    clock.advance(60_000);
    const res = await api.patch(`/leads/${lead.id}`, { email: null, phone: '+49 30 1234', status: 'qualified' });
    expectStatus(res, 200);
    expect(res.body).toEqual({
      ...lead,
      email: null,
      phone: '+49 30 1234',
      status: 'qualified',
      updated_at: clock.now().toISOString(),
    });
    expect((await api.get(`/leads/${lead.id}`)).body).toEqual(res.body);
    const { rows } = await platform.db.query('select status from crm_records where id = $1', [lead.id]);
    expect(rows[0].status).toBe('qualified');
  });

  test('an empty PATCH changes nothing, not even updated_at', async () => {
    const lead = await created(await api.post('/leads', { full_name: 'Unchanged' }), 'leads');
    clock.advance(1000);
    const res = await api.patch(`/leads/${lead.id}`, {});
    expectStatus(res, 200);
    expect(res.body).toEqual(lead);
  });

  test('an unknown field or a missing required field is 400 bad_input naming the field; nothing is stored', async () => {
    const before = await rowCount(ws.id);
    expectPartnerError(await api.post('/leads', { full_name: 'X', nickname: 'x' }), 400, 'bad_input', 'body.nickname');
    expectPartnerError(await api.post('/leads', { email: 'x@example.com' }), 400, 'bad_input', 'body.full_name');
    expectPartnerError(await api.post('/leads', { full_name: 'X', status: 'hot' }), 400, 'bad_input', 'body.status');
    const lead = await created(await api.post('/leads', { full_name: 'Y' }), 'leads');
    expectPartnerError(await api.patch(`/leads/${lead.id}`, { nickname: 'y' }), 400, 'bad_input', 'body.nickname');
    expectPartnerError(await api.patch(`/leads/${lead.id}`, { status: null }), 400, 'bad_input', 'body.status');
    expect(await rowCount(ws.id)).toBe(before + 1);
  });

  test("lead_not_found: a missing id, another workspace's lead, a record of another resource, a test-key lead for a live key", async () => {
    const theirs = await created(await other.post('/leads', { full_name: 'Theirs' }), 'leads');
    const company = await created(await api.post('/companies', { name: 'Not a lead' }), 'companies');
    const testLead = await created(await testEnv.post('/leads', { full_name: 'Test only' }), 'leads');
    for (const id of [newId(), theirs.id, company.id, testLead.id]) {
      expectPartnerError(await api.get(`/leads/${id}`), 404, 'lead_not_found');
      expectPartnerError(await api.patch(`/leads/${id}`, { full_name: 'Hijack' }), 404, 'lead_not_found');
    }
    expect((await other.get(`/leads/${theirs.id}`)).body.full_name).toBe('Theirs');
    expect((await testEnv.get(`/leads/${testLead.id}`)).body.full_name).toBe('Test only');
    const liveIds = (await api.get('/leads?limit=100')).body.data.map((l: { id: string }) => l.id);
    expect(liveIds).not.toContain(testLead.id);
    expect(liveIds).not.toContain(theirs.id);
  });
});

describe('companies, contacts and deals', () => {
  test('company create and update', async () => {
    const company = await created(await api.post('/companies', { name: 'Acme', domain: 'acme.example', industry: 'tools' }), 'companies');
    expect(company).toMatchObject({
      object: 'crm.company',
      name: 'Acme',
      domain: 'acme.example',
      industry: 'tools',
      email: null,
      phone: null,
      status: 'active',
      notes: null,
    });
    const res = await api.patch(`/companies/${company.id}`, { status: 'inactive', domain: null });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ name: 'Acme', status: 'inactive', domain: null, industry: 'tools' });
    expectPartnerError(await api.get(`/companies/${newId()}`), 404, 'company_not_found');
  });

  test('contact with a company of the workspace; update clears company_id; a foreign company is 400 body.company_id', async () => {
    const company = await created(await api.post('/companies', { name: 'Initech' }), 'companies');
    const contact = await created(
      await api.post('/contacts', { full_name: 'Peter', company_id: company.id, job_title: 'Engineer' }),
      'contacts',
    );
    expect(contact).toMatchObject({
      object: 'crm.contact',
      full_name: 'Peter',
      company_id: company.id,
      job_title: 'Engineer',
      status: 'active',
      email: null,
    });
    const cleared = await api.patch(`/contacts/${contact.id}`, { company_id: null });
    expectStatus(cleared, 200);
    expect(cleared.body).toMatchObject({ company_id: null, job_title: 'Engineer' });

    const foreign = await created(await other.post('/companies', { name: 'Elsewhere' }), 'companies');
    const before = await rowCount(ws.id);
    expectPartnerError(await api.post('/contacts', { full_name: 'Bad', company_id: foreign.id }), 400, 'bad_input', 'body.company_id');
    expectPartnerError(await api.post('/contacts', { full_name: 'Bad', company_id: contact.id }), 400, 'bad_input', 'body.company_id');
    expectPartnerError(await api.patch(`/contacts/${contact.id}`, { company_id: foreign.id }), 400, 'bad_input', 'body.company_id');
    expect(await rowCount(ws.id)).toBe(before);
    expect((await api.get(`/contacts/${contact.id}`)).body.company_id).toBeNull();
    expectPartnerError(await api.get(`/contacts/${newId()}`), 404, 'contact_not_found');
  });

  test('deal with contact and company; update; wrong references are 400 naming the field', async () => {
    const company = await created(await api.post('/companies', { name: 'Globex' }), 'companies');
    const contact = await created(await api.post('/contacts', { full_name: 'Hank', company_id: company.id }), 'contacts');
    const deal = await created(
      await api.post('/deals', {
        title: 'Big one',
        amount: 125000,
        currency: 'EUR',
        contact_id: contact.id,
        company_id: company.id,
        expected_close_date: '2026-12-31',
      }),
      'deals',
    );
    expect(deal).toEqual({
      object: 'crm.deal',
      id: deal.id,
      created_at: deal.created_at,
      updated_at: deal.updated_at,
      title: 'Big one',
      status: 'open',
      stage: null,
      amount: 125000,
      currency: 'EUR',
      contact_id: contact.id,
      company_id: company.id,
      expected_close_date: '2026-12-31',
      notes: null,
    });
    const won = await api.patch(`/deals/${deal.id}`, { status: 'won', stage: 'closed', amount: 130000 });
    expectStatus(won, 200);
    expect(won.body).toMatchObject({ status: 'won', stage: 'closed', amount: 130000, contact_id: contact.id, title: 'Big one' });

    expectPartnerError(await api.post('/deals', { title: 'x', contact_id: company.id }), 400, 'bad_input', 'body.contact_id');
    expectPartnerError(
      await api.post('/deals', { title: 'x', contact_id: contact.id, company_id: newId() }),
      400,
      'bad_input',
      'body.company_id',
    );
    expectPartnerError(await api.patch(`/deals/${deal.id}`, { company_id: contact.id }), 400, 'bad_input', 'body.company_id');
    // One date rule on every interface: year 0 is refused as the workspace API refuses it.
    expectPartnerError(
      await api.patch(`/deals/${deal.id}`, { expected_close_date: '0000-01-01' }),
      400,
      'bad_input',
      'body.expected_close_date',
    );
    expect((await api.get(`/deals/${deal.id}`)).body.company_id).toBe(company.id);
    // A missing deal answers 404 even when the references are wrong too.
    expectPartnerError(await api.patch(`/deals/${newId()}`, { company_id: newId() }), 404, 'deal_not_found');
  });

  test("deal_not_found for a missing id and for another workspace's deal", async () => {
    const theirs = await created(await other.post('/deals', { title: 'Theirs' }), 'deals');
    expectPartnerError(await api.get(`/deals/${theirs.id}`), 404, 'deal_not_found');
    expectPartnerError(await api.get(`/deals/${newId()}`), 404, 'deal_not_found');
    expectPartnerError(await api.patch(`/deals/${theirs.id}`, { title: 'Mine now' }), 404, 'deal_not_found');
    expect((await other.get(`/deals/${theirs.id}`)).body.title).toBe('Theirs');
  });
});

describe('activities', () => {
  test('create with occurred_at defaulting to now; a given instant is stored in UTC; get returns it', async () => {
    const lead = await created(await api.post('/leads', { full_name: 'Call me' }), 'leads');
    const activity = await created(
      await api.post('/activities', { activity_type: 'call', entity_type: 'lead', entity_id: lead.id, subject: 'Intro' }),
      'activities',
    );
    expect(activity).toEqual({
      object: 'crm.activity',
      id: activity.id,
      created_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
      activity_type: 'call',
      entity_type: 'lead',
      entity_id: lead.id,
      subject: 'Intro',
      body: null,
      occurred_at: clock.now().toISOString(),
    });
    const later = await created(
      await api.post('/activities', {
        activity_type: 'meeting',
        entity_type: 'lead',
        entity_id: lead.id,
        occurred_at: '2026-11-20T10:30:00+02:00',
      }),
      'activities',
    );
    expect(later.occurred_at).toBe('2026-11-20T08:30:00.000Z');
    // An instant written in year 0000 is refused by the same rule as a date (PostgreSQL reads no year 0000).
    const early = { activity_type: 'call', entity_type: 'lead', entity_id: lead.id, occurred_at: '0000-06-01T10:00:00Z' };
    expectPartnerError(await api.post('/activities', early), 400, 'bad_input', 'body.occurred_at');
    expect((await api.get(`/activities/${activity.id}`)).body).toEqual(activity);
    expectPartnerError(await api.get(`/activities/${newId()}`), 404, 'activity_not_found');
  });

  test('entity_id must be a record of entity_type in the same workspace and environment', async () => {
    const lead = await created(await api.post('/leads', { full_name: 'Entity' }), 'leads');
    const theirs = await created(await other.post('/deals', { title: 'Their deal' }), 'deals');
    const testDeal = await created(await testEnv.post('/deals', { title: 'Test deal' }), 'deals');
    const body = (entity_type: string, entity_id: string) => ({ activity_type: 'note', entity_type, entity_id });
    expectPartnerError(await api.post('/activities', body('deal', lead.id)), 400, 'bad_input', 'body.entity_id');
    expectPartnerError(await api.post('/activities', body('deal', theirs.id)), 400, 'bad_input', 'body.entity_id');
    expectPartnerError(await api.post('/activities', body('deal', testDeal.id)), 400, 'bad_input', 'body.entity_id');
    expectPartnerError(await api.post('/activities', body('invoice', lead.id)), 400, 'bad_input', 'body.entity_type');
    expectPartnerError(await api.post('/activities', { activity_type: 'note', entity_type: 'lead' }), 400, 'bad_input', 'body.entity_id');
    await created(await testEnv.post('/activities', body('deal', testDeal.id)), 'activities');
  });

  test('an activity cannot be changed: PATCH is 405 from the router', async () => {
    const lead = await created(await api.post('/leads', { full_name: 'Immutable' }), 'leads');
    const activity = await created(
      await api.post('/activities', { activity_type: 'task', entity_type: 'lead', entity_id: lead.id }),
      'activities',
    );
    const res = await api.patch(`/activities/${activity.id}`, { subject: 'changed' });
    expectPartnerError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toMatch(/GET/);
    expect((await api.get(`/activities/${activity.id}`)).body.subject).toBeNull();
  });
});

describe('read-only resources', () => {
  test('POST and PATCH on invoices are 405; nothing is stored', async () => {
    const before = await rowCount(ws.id);
    expectPartnerError(await api.post('/invoices', { number: 'INV-1' }), 405, 'method_not_allowed');
    expectPartnerError(await api.patch(`/invoices/${newId()}`, { number: 'INV-1' }), 405, 'method_not_allowed');
    expect(await rowCount(ws.id)).toBe(before);
  });

  test('rows inserted through insertCrmRecord are listed and read, with defaults and their not-found codes', async () => {
    const part = { workspaceId: ws.id, environment: 'live' as const, now: clock.now() };
    const rows = {
      invoices: await insertCrmRecord(platform.db, {
        ...part,
        resource: 'invoices',
        data: { number: 'INV-7', currency: 'EUR', amount_total: 1000, amount_due: 250, issued_on: '2026-11-01' },
      }),
      quotations: await insertCrmRecord(platform.db, {
        ...part,
        resource: 'quotations',
        data: { number: 'Q-1', status: 'sent', currency: 'USD', amount_total: 99 },
      }),
      payments: await insertCrmRecord(platform.db, {
        ...part,
        resource: 'payments',
        data: { amount: 250, currency: 'EUR', method: 'card', paid_at: '2026-11-02T12:00:00+01:00' },
      }),
      products: await insertCrmRecord(platform.db, {
        ...part,
        resource: 'products',
        data: { name: 'Widget', unit_price: 500, currency: 'EUR' },
      }),
      subscriptions: await insertCrmRecord(platform.db, {
        ...part,
        resource: 'subscriptions',
        data: { quantity: 3, currency: 'EUR', unit_price: 500 },
      }),
    };
    expect(rows.invoices).toMatchObject({ object: 'crm.invoice', status: 'draft', amount_due: 250, company_id: null, due_on: null });
    expect(rows.payments).toMatchObject({ status: 'pending', paid_at: '2026-11-02T11:00:00.000Z', invoice_id: null });
    for (const [resource, record] of Object.entries(rows)) {
      const got = await api.get(`/${resource}/${record.id}`);
      expectStatus(got, 200);
      expect(got.body).toEqual(record);
      const list = await api.get(`/${resource}`);
      expectStatus(list, 200);
      expect(list.body).toEqual({ object: 'list', data: [record], has_more: false, next_cursor: null });
      const code = crmResources.find((d) => d.id === resource)!.notFound;
      expectPartnerError(await api.get(`/${resource}/${newId()}`), 404, code);
      expectPartnerError(await other.get(`/${resource}/${record.id}`), 404, code);
    }
    expect((await api.get('/quotations?status=sent')).body.data).toHaveLength(1);
    expect((await api.get('/quotations?status=draft')).body.data).toHaveLength(0);
  });

  test('insertCrmRecord refuses unknown fields and missing required ones', async () => {
    const part = { workspaceId: ws.id, environment: 'live' as const };
    await expect(
      insertCrmRecord(platform.db, { ...part, resource: 'invoices', data: { number: 'X', currency: 'EUR', amount_total: 1 } }),
    ).rejects.toThrow(/amount_due/);
    await expect(insertCrmRecord(platform.db, { ...part, resource: 'products', data: { name: 'X', colour: 'red' } })).rejects.toThrow(
      /colour/,
    );
  });
});

describe('descriptive endpoints', () => {
  test('the index lists the ten resources with their scopes and writability', async () => {
    const res = await api.get('');
    expectStatus(res, 200);
    // The spelling with a trailing slash, documented before, answers the same.
    const alias = await api.get('/');
    expectStatus(alias, 200);
    expect(alias.body).toEqual(res.body);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([
      'leads',
      'deals',
      'contacts',
      'companies',
      'activities',
      'invoices',
      'quotations',
      'payments',
      'products',
      'subscriptions',
    ]);
    const byId = Object.fromEntries(res.body.data.map((r: { id: string }) => [r.id, r]));
    expect(byId.leads).toEqual({
      object: 'crm.resource',
      id: 'leads',
      path: `${crm}/leads`,
      record_object: 'crm.lead',
      writable: 'create_update',
      read_scope: 'crm_leads:read',
      write_scope: 'crm_leads:write',
      status_filter: true,
    });
    expect(byId.activities).toMatchObject({ writable: 'create_only', write_scope: 'crm_activities:write', status_filter: false });
    expect(byId.invoices).toMatchObject({ writable: 'read_only', read_scope: 'crm_invoices:read', write_scope: null, status_filter: true });
  });

  test('_scopes returns every catalogue scope and the presets', async () => {
    const res = await api.get('/_scopes');
    expectStatus(res, 200);
    expect(res.body.object).toBe('scope_catalogue');
    expect(res.body.scopes).toHaveLength(scopeCatalogue.length);
    expect(res.body.scopes).toContainEqual({
      object: 'scope',
      id: 'crm_leads:write',
      group: 'crm_leads',
      action: 'write',
      description: 'Create and update leads',
    });
    expect(res.body.presets).toHaveLength(Object.keys(scopePresets).length);
    expect(res.body.presets).toContainEqual({
      object: 'scope_preset',
      id: 'CRM finance read',
      scopes: ['crm_invoices:read', 'crm_quotations:read', 'crm_payments:read'],
    });
  });

  test("_me returns the calling key's identity", async () => {
    const key = await ws.key(['crm_leads:read', 'kb:read'], { environment: 'dev' });
    const res = await client(key.key).get('/_me');
    expectStatus(res, 200);
    expect(res.body).toEqual({
      object: 'crm.api_identity',
      tenant_id: ws.id,
      actor_type: 'api_key',
      key_prefix: key.prefix,
      scopes: ['crm_leads:read', 'kb:read'],
    });
  });
});
