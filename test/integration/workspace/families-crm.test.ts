// The CRM families beside /leads (/deals, /contacts, /companies, /quotations and lead conversion) over the real
// listener: their operations, filters and paging, scopes, bad input (400 with nothing changed), and one record
// through both APIs (the partner API serves the same crm_records rows).
import { count } from '../../helpers/expect.js';
import { keyHeaders } from '../../helpers/partner-expect.js';
import { expectSvcError, expectSvcRateHeaders, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { partnerKey as issuePartnerKey } from '../../support/partner.js';
import { newId } from '../../../src/platform/ids.js';

let platform: TestPlatform;
let ws: SvcWorkspace;
let key: string;
let seller: TestAccount;
let partnerKey: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner', 'workspace'] });
  ws = await svcWorkspace(platform);
  key = (await ws.key(['crm.*'])).key;
  seller = await ws.member('staff');
  partnerKey = (
    await issuePartnerKey(platform, ws.id, ['crm_deals:*', 'crm_contacts:*', 'crm_companies:*', 'crm_quotations:read', 'crm_leads:*'], {
      name: 'p',
      environment: 'live',
    })
  ).key;
});
afterAll(async () => {
  await platform.stop();
});

const svc = (method: string, path: string, body?: unknown, k = key) =>
  call(platform.workspaceUrl, method, `/api/v1${path}`, { headers: svcHeaders(k), body });
const partner = (method: string, path: string, body?: unknown) =>
  call(platform.partnerUrl, method, `/api/v1/partner/crm${path}`, {
    headers: keyHeaders(partnerKey, method === 'GET' ? undefined : newId()),
    body,
  });
const records = (resource: string) =>
  count(platform.db, 'select count(*) as n from crm_records where workspace_id = $1 and resource = $2', [ws.id, resource]);
const row = async (id: string) => (await platform.db.query('select data, updated_at from crm_records where id = $1', [id])).rows[0];

/** Every page of a list, following next_cursor. */
async function all(path: string, k = key): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: Awaited<ReturnType<typeof svc>> = await svc(
      'GET',
      `${path}${sep}limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      undefined,
      k,
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['items', 'next_cursor']);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

describe('deals', () => {
  test('create, get, update and list with filters; the stage drives the status', async () => {
    const contact = (await svc('POST', '/contacts', { name: 'Buyer' })).body;
    const res = await svc('POST', '/deals', {
      name: 'Rockets',
      amount: 990000,
      currency: 'USD',
      owner_id: seller.id,
      contact_id: contact.id,
      expected_close_date: '2027-01-31',
      note: 'big',
    });
    expect(res.status).toBe(201);
    expectSvcRateHeaders(res);
    expect(res.headers.get('location')).toBe(`/api/v1/deals/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Rockets',
      stage: 'new',
      status: 'open',
      amount: 990000,
      currency: 'USD',
      owner_id: seller.id,
      contact_id: contact.id,
      company_id: null,
      lead_id: null,
      expected_close_date: '2027-01-31',
      note: 'big',
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    expect((await svc('GET', `/deals/${res.body.id}`)).body).toEqual(res.body);
    const won = await svc('PATCH', `/deals/${res.body.id}`, { stage: 'won', note: null });
    expect(won.body).toMatchObject({ stage: 'won', status: 'won', note: null });
    const other = (await svc('POST', '/deals', { name: 'Skates', stage: 'proposal' })).body;
    await svc('POST', '/deals', { name: 'Anvil' });
    expect((await all('/deals?status=won')).map((d) => d.id)).toEqual([res.body.id]);
    expect((await all('/deals?stage=proposal')).map((d) => d.id)).toEqual([other.id]);
    expect((await all(`/deals?owner_id=${seller.id}`)).map((d) => d.id)).toEqual([res.body.id]);
    expect((await all(`/deals?contact_id=${contact.id}`)).map((d) => d.id)).toEqual([res.body.id]);
    const everything = await all('/deals');
    expect(everything.map((d) => d.name)).toEqual(expect.arrayContaining(['Anvil', 'Skates', 'Rockets']));
    expect(everything.length).toBe(await records('deals'));
  });

  test('bad input is 400 naming the field and changes nothing; other workspaces and environments read as 404', async () => {
    const deal = (await svc('POST', '/deals', { name: 'Untouched', amount: 1 })).body;
    const before = { deals: await records('deals'), row: await row(deal.id) };
    const strangerWs = await svcWorkspace(platform);
    const foreignContact = (await svc('POST', '/contacts', { name: 'Theirs' }, (await strangerWs.key(['crm.*'])).key)).body;
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/deals', { name: '' }, 'body.name'],
      ['POST', '/deals', { name: 'x', amount: -1 }, 'body.amount'],
      ['POST', '/deals', { name: 'x', amount: 1.5 }, 'body.amount'],
      ['POST', '/deals', { name: 'x', stage: 'Closed Won' }, 'body.stage'],
      ['POST', '/deals', { name: 'x', currency: 'usd' }, 'body.currency'],
      ['POST', '/deals', { name: 'x', expected_close_date: '2027-02-30' }, 'body.expected_close_date'],
      ['POST', '/deals', { name: 'x', owner_id: (await ws.tenant.account()).id }, 'body.owner_id'],
      ['POST', '/deals', { name: 'x', contact_id: foreignContact.id }, 'body.contact_id'],
      ['POST', '/deals', { name: 'x', status: 'won' }, 'body.status'],
      ['PATCH', `/deals/${deal.id}`, { stage: null }, 'body.stage'],
      ['PATCH', `/deals/${deal.id}`, { company_id: newId() }, 'body.company_id'],
      ['PATCH', `/deals/${deal.id}`, { owner_id: newId(), name: 'Renamed' }, 'body.owner_id'],
      ['GET', '/deals?cursor=abc', undefined, 'query.cursor'],
      ['GET', '/deals?status=pending', undefined, 'query.status'],
    ];
    for (const [method, path, body, field] of cases) expectSvcError(await svc(method, path, body), 400, 'invalid_request', field);
    expect(await records('deals')).toBe(before.deals);
    expect(await row(deal.id)).toEqual(before.row);
    expectSvcError(await svc('GET', `/deals/${deal.id}`, undefined, (await strangerWs.key(['crm.*'])).key), 404, 'not_found');
    expectSvcError(
      await svc('PATCH', `/deals/${deal.id}`, { name: 'x' }, (await ws.key(['crm.*'], { environment: 'test' })).key),
      404,
      'not_found',
    );
    expectSvcError(await svc('GET', `/deals/${newId()}`), 404, 'not_found');
  });

  test('one deal, two APIs: created here, read and changed through the partner API, and back', async () => {
    const created = (await svc('POST', '/deals', { name: 'Shared', stage: 'proposal', amount: 4200, currency: 'EUR', owner_id: seller.id }))
      .body;
    const viaPartner = await partner('GET', `/deals/${created.id}`);
    expect(viaPartner.body).toMatchObject({
      object: 'crm.deal',
      id: created.id,
      title: 'Shared',
      stage: 'proposal',
      status: 'open',
      amount: 4200,
      currency: 'EUR',
    });
    expect((await partner('PATCH', `/deals/${created.id}`, { title: 'Shared deal', notes: 'from partner' })).status).toBe(200);
    const back = (await svc('GET', `/deals/${created.id}`)).body;
    expect(back).toMatchObject({ name: 'Shared deal', note: 'from partner', owner_id: seller.id, stage: 'proposal' });
    await svc('PATCH', `/deals/${created.id}`, { stage: 'lost' });
    expect((await partner('GET', `/deals/${created.id}`)).body).toMatchObject({ status: 'lost', stage: 'lost' });

    const fromPartner = await partner('POST', '/deals', { title: 'Partner deal', amount: 10 });
    expect(fromPartner.status).toBe(201);
    expect((await svc('GET', `/deals/${fromPartner.body.id}`)).body).toMatchObject({
      name: 'Partner deal',
      stage: null,
      status: 'open',
      amount: 10,
      owner_id: null,
    });
    expect((await all('/deals')).map((d) => d.id)).toContain(fromPartner.body.id);
    expect(
      await count(platform.db, 'select count(*) as n from crm_records where id = any($1::uuid[])', [[created.id, fromPartner.body.id]]),
    ).toBe(2);
  });
});

describe('contacts and companies', () => {
  test('create, get, update, list with filters; null clears; the same rows as the partner API', async () => {
    const company = await svc('POST', '/companies', { name: 'Acme', domain: 'acme.example', industry: 'anvils' });
    expect(company.status).toBe(201);
    expect(company.body).toEqual({
      id: expect.any(String),
      name: 'Acme',
      domain: 'acme.example',
      industry: 'anvils',
      email: null,
      phone: null,
      status: 'active',
      note: null,
      created_at: expect.any(String),
      updated_at: company.body.created_at,
    });
    const contact = await svc('POST', '/contacts', {
      name: 'Wile E.',
      email: 'wile@acme.example',
      company_id: company.body.id,
      job_title: 'Genius',
    });
    expect(contact.body).toMatchObject({ name: 'Wile E.', status: 'active', company_id: company.body.id, job_title: 'Genius' });
    const changed = await svc('PATCH', `/contacts/${contact.body.id}`, { job_title: null, status: 'inactive' });
    expect(changed.body).toMatchObject({ job_title: null, status: 'inactive', email: 'wile@acme.example' });
    expect((await all(`/contacts?company_id=${company.body.id}`)).map((c) => c.id)).toEqual([contact.body.id]);
    expect((await all('/contacts?status=inactive')).map((c) => c.id)).toEqual([contact.body.id]);
    await svc('PATCH', `/companies/${company.body.id}`, { status: 'inactive' });
    expect((await all('/companies?status=inactive')).map((c) => c.id)).toEqual([company.body.id]);

    expect((await partner('GET', `/contacts/${contact.body.id}`)).body).toMatchObject({
      full_name: 'Wile E.',
      status: 'inactive',
      company_id: company.body.id,
    });
    expect((await partner('GET', `/companies/${company.body.id}`)).body).toMatchObject({ name: 'Acme', status: 'inactive' });
    const partnerContact = (await partner('POST', '/contacts', { full_name: 'Road Runner', notes: 'meep' })).body;
    expect((await svc('GET', `/contacts/${partnerContact.id}`)).body).toMatchObject({ name: 'Road Runner', note: 'meep' });
  });

  test('bad input changes nothing', async () => {
    const contact = (await svc('POST', '/contacts', { name: 'Stable' })).body;
    const before = { contacts: await records('contacts'), companies: await records('companies'), row: await row(contact.id) };
    expectSvcError(await svc('POST', '/contacts', { name: 'x', email: 'nope' }), 400, 'invalid_request', 'body.email');
    expectSvcError(await svc('POST', '/contacts', { name: 'x', company_id: contact.id }), 400, 'invalid_request', 'body.company_id');
    expectSvcError(await svc('PATCH', `/contacts/${contact.id}`, { company_id: newId() }), 400, 'invalid_request', 'body.company_id');
    expectSvcError(await svc('PATCH', `/contacts/${contact.id}`, { name: null }), 400, 'invalid_request', 'body.name');
    expectSvcError(await svc('POST', '/companies', { name: 'x', domain: 'not a domain' }), 400, 'invalid_request', 'body.domain');
    expect({ contacts: await records('contacts'), companies: await records('companies'), row: await row(contact.id) }).toEqual(before);
    expectSvcError(await svc('PATCH', `/companies/${newId()}`, { name: 'x' }), 404, 'not_found');
  });
});

describe('quotations', () => {
  test('a draft is edited, sent and accepted; the partner API reads the same quotation', async () => {
    const deal = (await svc('POST', '/deals', { name: 'Quoted' })).body;
    const created = await svc('POST', '/quotations', { currency: 'EUR', amount_total: 50000, deal_id: deal.id, valid_until: '2999-12-31' });
    expect(created.status).toBe(201);
    const q = created.body;
    expect(q).toMatchObject({
      status: 'draft',
      number: `Q-${q.id.slice(0, 8).toUpperCase()}`,
      deal_id: deal.id,
      sent_at: null,
      accepted_at: null,
    });
    expect((await svc('PATCH', `/quotations/${q.id}`, { amount_total: 45000, number: 'Q-2026/7' })).body).toMatchObject({
      amount_total: 45000,
      number: 'Q-2026/7',
    });
    const sent = (await svc('POST', `/quotations/${q.id}/send`)).body;
    expect(sent).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
    expectSvcError(await svc('PATCH', `/quotations/${q.id}`, { amount_total: 1 }), 409, 'conflict');
    expect((await svc('POST', `/quotations/${q.id}/send`)).body).toEqual(sent);
    const accepted = (await svc('POST', `/quotations/${q.id}/accept`)).body;
    expect(accepted).toMatchObject({ status: 'accepted', accepted_at: expect.any(String), amount_total: 45000 });
    expect((await partner('GET', `/quotations/${q.id}`)).body).toMatchObject({
      object: 'crm.quotation',
      number: 'Q-2026/7',
      status: 'accepted',
      amount_total: 45000,
      currency: 'EUR',
      deal_id: deal.id,
    });
    expect((await all(`/quotations?deal_id=${deal.id}`)).map((x) => x.id)).toEqual([q.id]);
    expect((await all('/quotations?status=accepted')).map((x) => x.id)).toEqual([q.id]);
  });

  test('moves the state refuses are 409 and change nothing: accept a draft, accept past valid_until, decline an accepted one', async () => {
    const stale = (await svc('POST', '/quotations', { currency: 'USD', amount_total: 1, valid_until: '2020-01-01' })).body;
    expectSvcError(await svc('POST', `/quotations/${stale.id}/accept`), 409, 'conflict', 'sent');
    await svc('POST', `/quotations/${stale.id}/send`);
    const before = await row(stale.id);
    expectSvcError(await svc('POST', `/quotations/${stale.id}/accept`), 409, 'conflict', '2020-01-01');
    expect(await row(stale.id)).toEqual(before);
    expect((await svc('POST', `/quotations/${stale.id}/decline`)).body.status).toBe('declined');
    expectSvcError(await svc('POST', `/quotations/${stale.id}/send`), 409, 'conflict');
    expectSvcError(
      await svc('POST', '/quotations', { currency: 'USD', amount_total: 1, contact_id: stale.id }),
      400,
      'invalid_request',
      'body.contact_id',
    );
    expectSvcError(await svc('POST', '/quotations', { currency: 'USD' }), 400, 'invalid_request', 'body.amount_total');
    expectSvcError(await svc('POST', `/quotations/${newId()}/send`), 404, 'not_found');
  });
});

describe('lead conversion', () => {
  test('one transaction makes the contact and the deal and converts the lead', async () => {
    const company = (await svc('POST', '/companies', { name: 'Lovelace Ltd' })).body;
    const lead = (await svc('POST', '/leads', { name: 'Ada', email: 'ada@example.com', phone: '+44 2', source: 'fair' })).body;
    await svc('PATCH', `/leads/${lead.id}`, { owner_id: seller.id });
    const res = await svc('POST', `/leads/${lead.id}/convert`, {
      deal_name: 'Engine order',
      amount: 100,
      currency: 'GBP',
      company_id: company.id,
    });
    expect(res.status).toBe(200);
    const { contact, deal } = res.body;
    expect(res.body.lead).toMatchObject({ id: lead.id, status: 'converted', owner_id: seller.id });
    expect(contact).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      phone: '+44 2',
      source: 'fair',
      company_id: company.id,
      status: 'active',
    });
    expect(deal).toMatchObject({
      name: 'Engine order',
      stage: 'new',
      status: 'open',
      amount: 100,
      currency: 'GBP',
      owner_id: seller.id,
      contact_id: contact.id,
      company_id: company.id,
      lead_id: lead.id,
    });
    expect((await svc('GET', `/contacts/${contact.id}`)).body).toEqual(contact);
    expect((await svc('GET', `/deals/${deal.id}`)).body).toEqual(deal);
    expect((await partner('GET', `/leads/${lead.id}`)).body.status).toBe('converted');

    const bare = (await svc('POST', '/leads', { name: 'Bare' })).body;
    const minimal = await call(platform.workspaceUrl, 'POST', `/api/v1/leads/${bare.id}/convert`, { headers: svcHeaders(key) });
    expect(minimal.status).toBe(200);
    expect(minimal.body.deal).toMatchObject({ name: 'Bare', amount: null, owner_id: null });
  });

  test('a refused conversion creates nothing and leaves the lead as it was', async () => {
    const lead = (await svc('POST', '/leads', { name: 'Refused' })).body;
    const before = { contacts: await records('contacts'), deals: await records('deals'), row: await row(lead.id) };
    expectSvcError(await svc('POST', `/leads/${lead.id}/convert`, { company_id: newId() }), 400, 'invalid_request', 'body.company_id');
    expectSvcError(await svc('POST', `/leads/${lead.id}/convert`, { stage: 'WON!' }), 400, 'invalid_request', 'body.stage');
    expectSvcError(await svc('POST', `/leads/${newId()}/convert`, {}), 404, 'not_found');
    expectSvcError(await svc('PATCH', `/leads/${lead.id}`, { status: 'converted' }), 400, 'invalid_request', 'convert');
    expect({ contacts: await records('contacts'), deals: await records('deals'), row: await row(lead.id) }).toEqual(before);
    await svc('POST', `/leads/${lead.id}/convert`, {});
    expectSvcError(await svc('POST', `/leads/${lead.id}/convert`, {}), 409, 'conflict');
    expect(await records('deals')).toBe(before.deals + 1);
  });

  test('leads list by owner', async () => {
    const owner = await ws.member('manager');
    const mine = (await svc('POST', '/leads', { name: 'Mine' })).body;
    await svc('PATCH', `/leads/${mine.id}`, { owner_id: owner.id });
    expect((await all(`/leads?owner_id=${owner.id}`)).map((l) => l.id)).toEqual([mine.id]);
  });
});

describe('scopes', () => {
  test('each operation needs its action scope; a 403 names it', async () => {
    const reader = (await ws.key(['crm.read'])).key;
    const deal = (await svc('POST', '/deals', { name: 'Scoped' })).body;
    const lead = (await svc('POST', '/leads', { name: 'Scoped' })).body;
    const quotation = (await svc('POST', '/quotations', { currency: 'EUR', amount_total: 1 })).body;
    for (const path of ['/deals', `/deals/${deal.id}`, '/contacts', '/companies', '/quotations', `/quotations/${quotation.id}`])
      expect((await svc('GET', path, undefined, reader)).status).toBe(200);
    const refusals: Array<[string, string, unknown, string]> = [
      ['POST', '/deals', { name: 'x' }, 'crm.deals.create'],
      ['PATCH', `/deals/${deal.id}`, { name: 'x' }, 'crm.deals.update'],
      ['POST', '/contacts', { name: 'x' }, 'crm.contacts.create'],
      ['POST', '/companies', { name: 'x' }, 'crm.companies.create'],
      ['POST', '/quotations', { currency: 'EUR', amount_total: 1 }, 'crm.quotations.create'],
      ['POST', `/quotations/${quotation.id}/send`, undefined, 'crm.quotations.update'],
      ['POST', `/leads/${lead.id}/convert`, {}, 'crm.leads.update'],
    ];
    for (const [method, path, body, scope] of refusals) expectSvcError(await svc(method, path, body, reader), 403, 'forbidden', scope);
    const dealsOnly = (await ws.key(['crm.deals.read'])).key;
    expect((await svc('GET', '/deals', undefined, dealsOnly)).status).toBe(200);
    expectSvcError(await svc('GET', '/contacts', undefined, dealsOnly), 403, 'forbidden', 'crm.contacts.read');
    const inbox = (await ws.key(['inbox.*'])).key;
    expectSvcError(await svc('GET', '/deals', undefined, inbox), 403, 'forbidden', 'crm.deals.read');
    expect((await svc('GET', `/quotations/${quotation.id}`)).body.status).toBe('draft');
  });
});
