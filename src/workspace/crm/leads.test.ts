// The /leads family over the real listener, on the same crm_records rows the partner API serves: a lead created
// through either API is one lead, read and changed through the other.
import { count } from '../../../test/helpers/expect.js';
import { keyHeaders } from '../../../test/helpers/partner-expect.js';
import { expectSvcError, expectSvcRateHeaders, svcHeaders } from '../../../test/helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../../test/support/workspace.js';
import { partnerKey } from '../../../test/support/partner.js';
import { newId } from '../../platform/ids.js';
import { walkSvcListIds } from '../../../test/helpers/paging.js';

let platform: TestPlatform;
let base: string;
let ws: SvcWorkspace;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner', 'workspace'] });
  base = platform.workspaceUrl;
  ws = await svcWorkspace(platform);
  key = (await ws.key(['crm.*'])).key;
});
afterAll(async () => {
  await platform.stop();
});

const svc = (method: string, path: string, body?: unknown, k = key) => call(base, method, path, { headers: svcHeaders(k), body });
const leadsKey = async (workspace: SvcWorkspace, environment: 'live' | 'test' = 'live') =>
  (await partnerKey(platform, workspace.id, ['crm_leads:*'], { name: 'partner', environment })).key;
const partner = (method: string, path: string, k: string, body?: unknown) =>
  call(platform.partnerUrl, method, `/api/v1/partner/crm${path}`, { headers: keyHeaders(k, method === 'GET' ? undefined : newId()), body });

describe('create and get', () => {
  test("201 with the seed's lead shape and a Location; status new, no owner", async () => {
    const res = await svc('POST', '/api/v1/leads', {
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      email: 'ada@example.com',
      source: 'website',
      note: 'met at the fair',
      custom_fields: { budget: '10k', region: 'EU' },
    });
    expect(res.status).toBe(201);
    expectSvcRateHeaders(res);
    expect(res.headers.get('location')).toBe(`/api/v1/leads/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      email: 'ada@example.com',
      source: 'website',
      status: 'new',
      owner_id: null,
      note: 'met at the fair',
      custom_fields: { budget: '10k', region: 'EU' },
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    const got = await svc('GET', `/api/v1/leads/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const minimal = await svc('POST', '/api/v1/leads', { name: 'Just a name' });
    expect(minimal.body).toMatchObject({
      phone: null,
      email: null,
      source: null,
      note: null,
      custom_fields: {},
      status: 'new',
      owner_id: null,
    });
  });

  test('bad input is 400 and stores nothing; a lead of another workspace or environment is 404', async () => {
    const before = await count(platform.db, "select count(*) as n from crm_records where workspace_id = $1 and resource = 'leads'", [
      ws.id,
    ]);
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'v']));
    expectSvcError(await svc('POST', '/api/v1/leads', { name: 'x', custom_fields: tooMany }), 400, 'invalid_request', 'body.custom_fields');
    expectSvcError(
      await svc('POST', '/api/v1/leads', { name: 'x', custom_fields: { '': 'v' } }),
      400,
      'invalid_request',
      'body.custom_fields',
    );
    expectSvcError(await svc('POST', '/api/v1/leads', { name: 'x', custom_fields: { a: 1 } }), 400, 'invalid_request');
    expectSvcError(await svc('POST', '/api/v1/leads', { name: '' }), 400, 'invalid_request', 'body.name');
    expectSvcError(await svc('POST', '/api/v1/leads', { name: 'x', email: 'not-an-email' }), 400, 'invalid_request', 'body.email');
    expectSvcError(await svc('POST', '/api/v1/leads', { name: 'x', status: 'converted' }), 400, 'invalid_request', 'body.status');
    expect(await count(platform.db, "select count(*) as n from crm_records where workspace_id = $1 and resource = 'leads'", [ws.id])).toBe(
      before,
    );

    const lead = (await svc('POST', '/api/v1/leads', { name: 'Mine' })).body;
    const other = await svcWorkspace(platform);
    expectSvcError(await svc('GET', `/api/v1/leads/${lead.id}`, undefined, (await other.key(['crm.read'])).key), 404, 'not_found');
    expectSvcError(
      await svc('GET', `/api/v1/leads/${lead.id}`, undefined, (await ws.key(['crm.read'], { environment: 'test' })).key),
      404,
      'not_found',
    );
    expectSvcError(await svc('GET', `/api/v1/leads/${newId()}`), 404, 'not_found');
  });
});

describe('list', () => {
  test('{items, next_cursor}, newest first, in pages; status filter; partitioned by workspace and environment', async () => {
    const own = await svcWorkspace(platform);
    const ownKey = (await own.key(['crm.*'])).key;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await svc('POST', '/api/v1/leads', { name: `L${i}` }, ownKey)).body.id);
    await svc('PATCH', `/api/v1/leads/${ids[1]}`, { status: 'qualified' }, ownKey);
    const listed = await walkSvcListIds((cursorQuery) => svc('GET', `/api/v1/leads?limit=2${cursorQuery}`, undefined, ownKey));
    expect(listed.pages).toBe(3);
    expect(listed.ids).toEqual([...ids].reverse());
    const qualified = await svc('GET', '/api/v1/leads?status=qualified', undefined, ownKey);
    expect(qualified.body).toEqual({ items: [expect.objectContaining({ id: ids[1], status: 'qualified' })], next_cursor: null });
    expectSvcError(await svc('GET', '/api/v1/leads?status=lost', undefined, ownKey), 400, 'invalid_request', 'query.status');
    expectSvcError(await svc('GET', '/api/v1/leads?cursor=abc', undefined, ownKey), 400, 'invalid_request', 'query.cursor');
    const testKey = (await own.key(['crm.read'], { environment: 'test' })).key;
    expect((await svc('GET', '/api/v1/leads', undefined, testKey)).body).toEqual({ items: [], next_cursor: null });
  });

  test("a cursor is bound to the key's workspace and environment and to the filters: replayed elsewhere it is 400", async () => {
    const own = await svcWorkspace(platform);
    const ownKey = (await own.key(['crm.*'])).key;
    for (const name of ['B1', 'B2']) await svc('POST', '/api/v1/leads', { name }, ownKey);
    const cursor = (await svc('GET', '/api/v1/leads?status=new&limit=1', undefined, ownKey)).body.next_cursor as string;
    expect((await svc('GET', `/api/v1/leads?status=new&limit=1&cursor=${cursor}`, undefined, ownKey)).status).toBe(200);
    const replays = [
      ['another workspace', `/api/v1/leads?status=new&limit=1&cursor=${cursor}`, key],
      [
        'the test environment',
        `/api/v1/leads?status=new&limit=1&cursor=${cursor}`,
        (await own.key(['crm.read'], { environment: 'test' })).key,
      ],
      ['another status', `/api/v1/leads?status=qualified&limit=1&cursor=${cursor}`, ownKey],
      ['no status', `/api/v1/leads?limit=1&cursor=${cursor}`, ownKey],
      ['another list', `/api/v1/deals?limit=1&cursor=${cursor}`, ownKey],
    ];
    for (const [, path, k] of replays) expectSvcError(await svc('GET', path!, undefined, k), 400, 'invalid_request', 'query.cursor');
  });
});

describe('update', () => {
  test('status and owner_id; the owner must be a member; null unassigns; an empty body changes nothing', async () => {
    const lead = (await svc('POST', '/api/v1/leads', { name: 'Owned' })).body;
    const seller = await ws.member('staff');
    const res = await svc('PATCH', `/api/v1/leads/${lead.id}`, { status: 'contacted', owner_id: seller.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: lead.id, status: 'contacted', owner_id: seller.id, name: 'Owned' });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(lead.updated_at));

    const stranger = await ws.tenant.account();
    expectSvcError(await svc('PATCH', `/api/v1/leads/${lead.id}`, { owner_id: stranger.id }), 400, 'invalid_request', 'body.owner_id');
    expectSvcError(await svc('PATCH', `/api/v1/leads/${lead.id}`, { status: 'won' }), 400, 'invalid_request', 'body.status');
    expectSvcError(await svc('PATCH', `/api/v1/leads/${lead.id}`, { name: 'Renamed' }), 400, 'invalid_request', 'body.name');
    expectSvcError(await svc('PATCH', `/api/v1/leads/${newId()}`, { owner_id: seller.id }), 404, 'not_found');
    expectSvcError(await svc('PATCH', `/api/v1/leads/${newId()}`, { status: 'contacted' }), 404, 'not_found');
    const unchanged = await svc('GET', `/api/v1/leads/${lead.id}`);
    expect(unchanged.body).toMatchObject({ status: 'contacted', owner_id: seller.id });

    const empty = await svc('PATCH', `/api/v1/leads/${lead.id}`, {});
    expect(empty.body).toEqual(unchanged.body);
    const unassigned = await svc('PATCH', `/api/v1/leads/${lead.id}`, { owner_id: null });
    expect(unassigned.body.owner_id).toBeNull();
  });
});

describe('one lead, two APIs', () => {
  test('created through the workspace API, read and changed through the partner API, and back', async () => {
    const pk = await leadsKey(ws);
    const created = (
      await svc('POST', '/api/v1/leads', {
        name: 'Grace Hopper',
        email: 'grace@example.com',
        phone: '+1 555 0100',
        source: 'referral',
        note: 'COBOL',
        custom_fields: { tier: 'gold' },
      })
    ).body;
    const owner = await ws.member('manager');
    await svc('PATCH', `/api/v1/leads/${created.id}`, { owner_id: owner.id, status: 'qualified' });

    const viaPartner = await partner('GET', `/leads/${created.id}`, pk);
    expect(viaPartner.status).toBe(200);
    expect(viaPartner.body).toMatchObject({
      object: 'crm.lead',
      id: created.id,
      full_name: 'Grace Hopper',
      email: 'grace@example.com',
      phone: '+1 555 0100',
      source: 'referral',
      status: 'qualified',
      notes: 'COBOL',
      company_name: null,
    });
    expect((await partner('GET', '/leads?status=qualified', pk)).body.data.map((l: { id: string }) => l.id)).toContain(created.id);

    // A partner update merges into the row: the fields only the workspace API shows survive it.
    expect((await partner('PATCH', `/leads/${created.id}`, pk, { full_name: 'Rear Admiral Hopper', status: 'converted' })).status).toBe(
      200,
    );
    const back = await svc('GET', `/api/v1/leads/${created.id}`);
    expect(back.body).toMatchObject({
      name: 'Rear Admiral Hopper',
      status: 'converted',
      owner_id: owner.id,
      custom_fields: { tier: 'gold' },
      note: 'COBOL',
    });
  });

  test('created through the partner API, read, listed and changed through the workspace API', async () => {
    const pk = await leadsKey(ws);
    const created = await partner('POST', '/leads', pk, {
      full_name: 'Alan Turing',
      email: 'alan@example.com',
      notes: 'Bletchley',
      company_name: 'GC&CS',
    });
    expect(created.status).toBe(201);
    const got = await svc('GET', `/api/v1/leads/${created.body.id}`);
    expect(got.body).toEqual({
      id: created.body.id,
      name: 'Alan Turing',
      phone: null,
      email: 'alan@example.com',
      source: null,
      status: 'new',
      owner_id: null,
      note: 'Bletchley',
      custom_fields: {},
      created_at: created.body.created_at,
      updated_at: created.body.updated_at,
    });
    expect((await svc('GET', '/api/v1/leads?limit=100')).body.items.map((l: { id: string }) => l.id)).toContain(created.body.id);
    await svc('PATCH', `/api/v1/leads/${created.body.id}`, { status: 'unqualified' });
    expect((await partner('GET', `/leads/${created.body.id}`, pk)).body).toMatchObject({ status: 'unqualified', company_name: 'GC&CS' });
    expect(await count(platform.db, 'select count(*) as n from crm_records where id = $1', [created.body.id])).toBe(1);
  });

  test('environments line up: svc_test_ keys and test_ partner keys share the test leads', async () => {
    const pk = await leadsKey(ws, 'test');
    const svcTest = (await ws.key(['crm.*'], { environment: 'test' })).key;
    const created = (await svc('POST', '/api/v1/leads', { name: 'Test lead' }, svcTest)).body;
    expect((await partner('GET', `/leads/${created.id}`, pk)).status).toBe(200);
    expect((await partner('GET', `/leads/${created.id}`, await leadsKey(ws, 'live'))).status).toBe(404);
  });
});
