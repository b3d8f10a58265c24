// The knowledge base under /api/v1/inbox/kb over the real listener with real keys: articles' create, get, update,
// delete and list (tags, paging, partitions), Idempotency-Key on writes, scopes, and the full-text search.
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../platform/clock.js';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { expectPartnerError } from '../../../test/helpers/partner-expect.js';
import { expectStatus, partnerKeyClient, type PartnerKeyClient } from '../../../test/support/partner-client.js';
import { alternate } from '../../../test/helpers/data.js';

const kb = '/api/v1/inbox/kb';
const clock = new ManualClock(new Date('2026-11-25T08:00:00.000Z'));
let platform: TestPlatform;
let ws: TestWorkspace;
let api: PartnerKeyClient;
let reader: PartnerKeyClient;

const articleCount = async (workspaceId: string) =>
  Number((await platform.db.query('select count(*) as n from kb_articles where workspace_id = $1', [workspaceId])).rows[0].n);

async function create(client: PartnerKeyClient, body: Record<string, unknown>): Promise<any> {
  const res = await client.post(`${kb}/articles`, body);
  expectStatus(res, 201);
  expect(res.headers.get('location')).toBe(`${kb}/articles/${res.body.id}`);
  return res.body;
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] }, clock);
  ws = await testWorkspace(platform);
  api = partnerKeyClient(platform.partnerUrl, (await ws.key(['kb:*'])).key);
  reader = partnerKeyClient(platform.partnerUrl, (await ws.key(['kb:read'])).key);
});
afterAll(async () => {
  await platform?.stop();
});

test('create, get, update and delete an article', async () => {
  const article = await create(api, {
    title: '  Opening hours ',
    body: 'We are open Monday to Friday.',
    tags: ['hours', 'store', 'hours'],
  });
  expect(article).toEqual({
    object: 'kb.article',
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    title: 'Opening hours',
    body: 'We are open Monday to Friday.',
    tags: ['hours', 'store'],
    created_at: clock.now().toISOString(),
    updated_at: clock.now().toISOString(),
  });
  expect((await reader.get(`${kb}/articles/${article.id}`)).body).toEqual(article);

  clock.advance(60_000);
  const updated = await api.patch(`${kb}/articles/${article.id}`, { body: 'We are open every day.' });
  expectStatus(updated, 200);
  expect(updated.body).toEqual({ ...article, body: 'We are open every day.', updated_at: clock.now().toISOString() });

  const deleted = await api.delete(`${kb}/articles/${article.id}`);
  expectStatus(deleted, 200);
  expect(deleted.body).toEqual({ object: 'kb.article', id: article.id, deleted: true });
  expectPartnerError(await reader.get(`${kb}/articles/${article.id}`), 404, 'article_not_found');
  expectPartnerError(await api.delete(`${kb}/articles/${article.id}`), 404, 'article_not_found');
  expectPartnerError(await api.patch(`${kb}/articles/${article.id}`, { title: 'x' }), 404, 'article_not_found');
});

test('bad input is 400 bad_input naming the field and writes nothing', async () => {
  const before = await articleCount(ws.id);
  expectPartnerError(await api.post(`${kb}/articles`, { title: 'No body' }), 400, 'bad_input');
  expectPartnerError(await api.post(`${kb}/articles`, { title: 'T', body: 'B', tags: ['Not A Tag'] }), 400, 'bad_input', {
    field: 'body.tags.0',
  });
  expectPartnerError(await api.post(`${kb}/articles`, { title: 'T', body: 'B', colour: 'red' }), 400, 'bad_input');
  expectPartnerError(await api.post(`${kb}/articles`, { title: '   ', body: 'B' }), 400, 'bad_input');
  expect(await articleCount(ws.id)).toBe(before);
});

test('writes need an Idempotency-Key; a repeat returns the first article and creates no second one', async () => {
  const key = (await ws.key(['kb:write'])).key;
  const noIdem = await fetch(`${platform.partnerUrl}${kb}/articles`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'T', body: 'B' }),
  });
  expect(noIdem.status).toBe(400);
  const writer = partnerKeyClient(platform.partnerUrl, key);
  const before = await articleCount(ws.id);
  const idem = randomUUID();
  const first = await writer.post(`${kb}/articles`, { title: 'Returns', body: 'Returns within 30 days.' }, idem);
  const again = await writer.post(`${kb}/articles`, { title: 'Returns', body: 'Returns within 30 days.' }, idem);
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  expect(await articleCount(ws.id)).toBe(before + 1);
  expectPartnerError(await writer.post(`${kb}/articles`, { title: 'Other', body: 'Other' }, idem), 409, 'idempotency_conflict');
});

test('scopes: kb:read reads but may not write; a key without kb scopes gets 403 naming the scope', async () => {
  expectPartnerError(await reader.post(`${kb}/articles`, { title: 'T', body: 'B' }), 403, 'scope_required', { scope: 'kb:write' });
  const none = partnerKeyClient(platform.partnerUrl, (await ws.key(['crm_leads:read'])).key);
  expectPartnerError(await none.get(`${kb}/articles`), 403, 'scope_required', { scope: 'kb:read' });
  expectPartnerError(await none.get(`${kb}/search?q=x`), 403, 'scope_required', { scope: 'kb:read' });
});

test('lists: newest first, a tag filter, cursor paging, and each workspace and environment sees only its own', async () => {
  const own = await testWorkspace(platform);
  const client = partnerKeyClient(platform.partnerUrl, (await own.key(['kb:*'])).key);
  const made = [];
  for (let i = 0; i < 5; i++)
    made.push(await create(client, { title: `Article ${i}`, body: `Body ${i}`, tags: alternate(i, ['even'], []) }));
  const first = await client.get(`${kb}/articles?limit=2`);
  expect(first.body.data.map((a: any) => a.id)).toEqual([made[4].id, made[3].id]);
  expect(first.body.has_more).toBe(true);
  const second = await client.get(`${kb}/articles?limit=2&cursor=${first.body.next_cursor}`);
  expect(second.body.data.map((a: any) => a.id)).toEqual([made[2].id, made[1].id]);
  const last = await client.get(`${kb}/articles?limit=2&cursor=${second.body.next_cursor}`);
  expect(last.body).toMatchObject({ has_more: false, next_cursor: null });
  expect(last.body.data.map((a: any) => a.id)).toEqual([made[0].id]);
  expect((await client.get(`${kb}/articles?tag=even`)).body.data.map((a: any) => a.id)).toEqual([made[4].id, made[2].id, made[0].id]);
  expectPartnerError(await client.get(`${kb}/articles?cursor=nonsense`), 400, 'bad_input', { field: 'query.cursor' });

  expectPartnerError(await api.get(`${kb}/articles/${made[0].id}`), 404, 'article_not_found');
  const testEnv = partnerKeyClient(platform.partnerUrl, (await own.key(['kb:*'], { environment: 'test' })).key);
  expect((await testEnv.get(`${kb}/articles`)).body.data).toEqual([]);
  expectPartnerError(await testEnv.get(`${kb}/articles/${made[0].id}`), 404, 'article_not_found');
});

describe('search', () => {
  let searcher: PartnerKeyClient;
  let refunds: any;
  let shipping: any;
  beforeAll(async () => {
    const own = await testWorkspace(platform);
    searcher = partnerKeyClient(platform.partnerUrl, (await own.key(['kb:*'])).key);
    refunds = await create(searcher, {
      title: 'Refunds',
      body: 'A refund is paid to the original card within five days. Refund requests need the order number. Our shop also sells gift cards.',
      tags: ['billing'],
    });
    shipping = await create(searcher, {
      title: 'Shipping',
      body: 'Parcels leave the warehouse every morning; a refund of shipping costs is possible.',
    });
    await create(searcher, { title: 'Passwords', body: 'Reset your password from the sign-in page.' });
  });

  test('ranks the articles that contain the words, best first, with an excerpt around them', async () => {
    const res = await searcher.get(`${kb}/search?q=${encodeURIComponent('refund')}`);
    expectStatus(res, 200);
    expect(res.body.object).toBe('list');
    expect(res.body.data.map((m: any) => m.article.id)).toEqual([refunds.id, shipping.id]);
    const [best, next] = res.body.data;
    expect(best.object).toBe('kb.search_result');
    expect(best.rank).toBeGreaterThan(next.rank);
    expect(best.excerpt).toMatch(/refund/i);
    expect(best.excerpt.length).toBeLessThanOrEqual(best.article.body.length);
  });

  test('every word must occur; case and language do not matter; a tag narrows; nothing found is an empty list', async () => {
    expect((await searcher.get(`${kb}/search?q=${encodeURIComponent('REFUND order')}`)).body.data.map((m: any) => m.article.id)).toEqual([
      refunds.id,
    ]);
    expect((await searcher.get(`${kb}/search?q=refund&tag=billing`)).body.data.map((m: any) => m.article.id)).toEqual([refunds.id]);
    expect((await searcher.get(`${kb}/search?q=${encodeURIComponent('refund -order')}`)).body.data.map((m: any) => m.article.id)).toEqual([
      shipping.id,
    ]);
    expect((await searcher.get(`${kb}/search?q=unicorns`)).body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    // Operators-only or odd input is no error: websearch syntax never fails.
    expectStatus(await searcher.get(`${kb}/search?q=${encodeURIComponent('" & | ! (')}`), 200);
  });

  test('pages through the ranking with next_cursor; a cursor of another search is refused', async () => {
    const page = await searcher.get(`${kb}/search?q=refund&limit=1`);
    expect(page.body.data.map((m: any) => m.article.id)).toEqual([refunds.id]);
    expect(page.body.has_more).toBe(true);
    const next = await searcher.get(`${kb}/search?q=refund&limit=1&cursor=${page.body.next_cursor}`);
    expect(next.body.data.map((m: any) => m.article.id)).toEqual([shipping.id]);
    expect(next.body.has_more).toBe(false);
    expectPartnerError(await searcher.get(`${kb}/search?q=shipping&limit=1&cursor=${page.body.next_cursor}`), 400, 'bad_input', {
      field: 'query.cursor',
    });
  });

  test('an article changed or deleted is searched as it now is', async () => {
    const own = await create(searcher, { title: 'Temporary', body: 'zebra crossing' });
    expect((await searcher.get(`${kb}/search?q=zebra`)).body.data).toHaveLength(1);
    await searcher.patch(`${kb}/articles/${own.id}`, { body: 'pedestrian crossing' });
    expect((await searcher.get(`${kb}/search?q=zebra`)).body.data).toHaveLength(0);
    await searcher.delete(`${kb}/articles/${own.id}`);
    expect((await searcher.get(`${kb}/search?q=pedestrian`)).body.data).toHaveLength(0);
  });

  test('the search uses the GIN expression index', async () => {
    // One connection, so that the planner setting holds for the explain; the table is too small to prefer the index.
    const client = await platform.db.connect();
    try {
      await client.query('set enable_seqscan = off');
      const { rows } = await client.query(
        `explain (format json) select id from kb_articles a where to_tsvector('simple'::regconfig, a.title || ' ' || a.body) @@ websearch_to_tsquery('simple'::regconfig, 'refund')`,
      );
      expect(JSON.stringify(rows)).toContain('kb_articles_search');
    } finally {
      await client.query('reset enable_seqscan');
      client.release();
    }
  });
});
