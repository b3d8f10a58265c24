// Lists of the partner CRM API: keyset paging newest first, the status filter, cursors the server did not issue,
// page size limits, and the partition by workspace and environment.
import { randomUUID } from 'node:crypto';
import { encodeCursor } from '../../platform/http/cursor.js';
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { expectPartnerError } from '../../../test/helpers/partner-expect.js';
import { insertCrmRecords } from '../../core/crm/records.js';

const crm = '/api/v1/partner/crm';
let platform: TestPlatform;
let base: string;

type Res = Awaited<ReturnType<typeof call>>;
const get = (key: string, path: string) => call(base, 'GET', `${crm}${path}`, { headers: { 'x-api-key': key } });
const post = (key: string, path: string, body: unknown) =>
  call(base, 'POST', `${crm}${path}`, { headers: { 'x-api-key': key, 'idempotency-key': randomUUID() }, body });

function expectBadCursor(res: Res): void {
  expectPartnerError(res, 400, 'bad_input', { field: 'query.cursor' });
}

/** Follows next_cursor until has_more is false; checks every page's envelope on the way. */
async function pageThrough(key: string, path: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 1; pages < 50; pages++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await get(key, `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
    expect(res.body.object).toBe('list');
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((r: { id: string }) => r.id));
    if (!res.body.has_more) {
      expect(res.body.next_cursor).toBeNull();
      return { ids, pages };
    }
    expect(res.body.data).toHaveLength(limit);
    expect(typeof res.body.next_cursor).toBe('string');
    cursor = res.body.next_cursor;
  }
  throw new Error('paging does not end');
}

let ws: TestWorkspace;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] });
  base = platform.partnerUrl;
  ws = await testWorkspace(platform);
  key = (await ws.key(['crm_leads:*', 'crm_deals:read', 'crm_activities:*', 'crm_products:read'])).key;
});
afterAll(async () => {
  await platform?.stop();
});

test('seven leads with limit=3: three pages, newest first, no duplicates, the last has has_more false', async () => {
  const created: string[] = [];
  const statuses = ['new', 'contacted', 'new', 'qualified', 'new', 'contacted', 'new'];
  for (const [i, status] of statuses.entries()) {
    const res = await post(key, '/leads', { full_name: `Lead ${i}`, status });
    expect(res.status).toBe(201);
    created.push(res.body.id);
  }
  const { ids, pages } = await pageThrough(key, '/leads', 3);
  expect(pages).toBe(3);
  expect(ids).toEqual([...created].reverse());
  expect(new Set(ids).size).toBe(7);

  const fresh = await pageThrough(key, '/leads?status=new', 3);
  expect(fresh.ids).toEqual(created.filter((_, i) => statuses[i] === 'new').reverse());
  expect(fresh.pages).toBe(2);
  const contacted = await get(key, '/leads?status=contacted');
  expect(contacted.body.data.map((l: { id: string }) => l.id)).toEqual([created[5], created[1]]);
  expect(contacted.body.data.every((l: { status: string }) => l.status === 'contacted')).toBe(true);
  expect((await get(key, '/leads?status=converted')).body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
});

test('a PATCHed status moves the record between filtered lists', async () => {
  const lead = (await post(key, '/leads', { full_name: 'Mover' })).body;
  expect((await get(key, '/leads?status=unqualified&limit=100')).body.data).toHaveLength(0);
  const res = await call(base, 'PATCH', `${crm}/leads/${lead.id}`, {
    headers: { 'x-api-key': key, 'idempotency-key': randomUUID() },
    body: { status: 'unqualified' },
  });
  expect(res.status).toBe(200);
  expect((await get(key, '/leads?status=unqualified&limit=100')).body.data.map((l: { id: string }) => l.id)).toEqual([lead.id]);
});

test('default page size 50, maximum 100; limit outside 1..100 and an unknown status are 400', async () => {
  const part = { workspaceId: ws.id, environment: 'live' as const };
  await insertCrmRecords(
    platform.db,
    part,
    'products',
    Array.from({ length: 101 }, (_, i) => ({ name: `P${i}` })),
  );
  const first = await get(key, '/products');
  expect(first.body.data).toHaveLength(50);
  expect(first.body.has_more).toBe(true);
  const max = await get(key, '/products?limit=100');
  expect(max.body.data).toHaveLength(100);
  expect(max.body.has_more).toBe(true);
  const rest = await get(key, `/products?limit=100&cursor=${max.body.next_cursor}`);
  expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
  expect(rest.body.data.map((p: { name: string }) => p.name)).toEqual(['P0']);
  for (const q of ['limit=0', 'limit=101', 'status=hot']) {
    const res = await get(key, `/products?${q}`);
    expect({ q, status: res.status, code: res.body.error?.code }).toEqual({ q, status: 400, code: 'bad_input' });
  }
});

test('a cursor the server did not issue, or issued for another resource, is 400 bad_input query.cursor', async () => {
  await post(key, '/leads', { full_name: 'One' });
  await post(key, '/leads', { full_name: 'Two' });
  const page = await get(key, '/leads?limit=1');
  const cursor = page.body.next_cursor as string;
  expect((await get(key, `/leads?cursor=${cursor}`)).status).toBe(200);
  expectBadCursor(await get(key, `/deals?cursor=${cursor}`));
  expectBadCursor(await get(key, '/leads?cursor=not-a-cursor'));
  expectBadCursor(await get(key, `/leads?cursor=${encodeCursor({ r: 'leads', i: 'x' })}`));
  expectBadCursor(await get(key, `/leads?cursor=${encodeCursor({ id: page.body.data[0].id })}`));
});

test('lists are partitioned by workspace and by key environment', async () => {
  const otherWs = await testWorkspace(platform);
  const otherKey = (await otherWs.key(['crm_leads:*'])).key;
  const testKey = (await ws.key(['crm_leads:*'], { environment: 'test' })).key;
  const devKey = (await ws.key(['crm_leads:*'], { environment: 'dev' })).key;
  const theirs = (await post(otherKey, '/leads', { full_name: 'Theirs' })).body.id;
  const testLead = (await post(testKey, '/leads', { full_name: 'Test' })).body.id;
  const live = await pageThrough(key, '/leads', 100);
  expect(live.ids).not.toContain(theirs);
  expect(live.ids).not.toContain(testLead);
  expect((await pageThrough(testKey, '/leads', 100)).ids).toEqual([testLead]);
  expect((await pageThrough(devKey, '/leads', 100)).ids).toEqual([]);
  expect((await pageThrough(otherKey, '/leads', 100)).ids).toEqual([theirs]);
});

test("a cursor is bound to its caller's workspace and environment and to its filters: replayed elsewhere it is 400", async () => {
  const otherKey = (await (await testWorkspace(platform)).key(['crm_leads:*'])).key;
  const testKey = (await ws.key(['crm_leads:*'], { environment: 'test' })).key;
  const sameKey = (await ws.key(['crm_leads:*'])).key;
  for (const name of ['Bound one', 'Bound two']) await post(key, '/leads', { full_name: name, status: 'new' });
  const cursor = (await get(key, '/leads?status=new&limit=1')).body.next_cursor as string;
  expect((await get(key, `/leads?status=new&limit=1&cursor=${cursor}`)).status).toBe(200);
  // Another live key of the same workspace continues the same list.
  expect((await get(sameKey, `/leads?status=new&limit=1&cursor=${cursor}`)).status).toBe(200);
  expectBadCursor(await get(otherKey, `/leads?status=new&limit=1&cursor=${cursor}`));
  expectBadCursor(await get(testKey, `/leads?status=new&limit=1&cursor=${cursor}`));
  expectBadCursor(await get(key, `/leads?status=contacted&limit=1&cursor=${cursor}`));
  expectBadCursor(await get(key, `/leads?limit=1&cursor=${cursor}`));
});

test('activities list newest first without a status filter', async () => {
  const lead = (await post(key, '/leads', { full_name: 'Busy' })).body;
  const ids: string[] = [];
  for (const type of ['call', 'email', 'note']) {
    const res = await post(key, '/activities', { activity_type: type, entity_type: 'lead', entity_id: lead.id });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  const { ids: listed } = await pageThrough(key, '/activities', 2);
  expect(listed).toEqual(ids.reverse());
});
