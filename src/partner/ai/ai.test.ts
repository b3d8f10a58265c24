// AI under /api/v1/inbox/ai over the real listener: the settings, agents' configuration (create, get, update,
// delete, list, references to articles) and suggested replies drawn from the knowledge base by full-text search.
import { ManualClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { expectPartnerError } from '../../../test/helpers/partner-expect.js';
import { expectStatus, partnerKeyClient, type PartnerKeyClient } from '../../../test/support/partner-client.js';

const ai = '/api/v1/inbox/ai';
const clock = new ManualClock(new Date('2026-11-25T09:00:00.000Z'));
let platform: TestPlatform;
let ws: TestWorkspace;
let api: PartnerKeyClient;
const articles: Record<string, any> = {};

async function created(res: Awaited<ReturnType<PartnerKeyClient['post']>>): Promise<any> {
  expectStatus(res, 201);
  return res.body;
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] }, clock);
  ws = await testWorkspace(platform);
  api = partnerKeyClient(platform.partnerUrl, (await ws.key(['kb:*', 'ai:*', 'agents:*'])).key);
  const article = async (name: string, body: Record<string, unknown>) => {
    articles[name] = await created(await api.post('/api/v1/inbox/kb/articles', body));
  };
  await article('refunds', {
    title: 'Refunds',
    body: 'A refund is paid to the original card within five working days of the return.',
    tags: ['billing'],
  });
  await article('invoices', { title: 'Invoices', body: 'Every order has an invoice; a refund gets a credit note.', tags: ['billing'] });
  await article('delivery', {
    title: 'Delivery',
    body: 'Parcels are delivered within two days; a late parcel can get a refund.',
    tags: ['shipping'],
  });
});
afterAll(async () => {
  await platform?.stop();
});

test('the settings say how suggestions are made and count the configuration', async () => {
  const res = await api.get(`${ai}/settings`);
  expectStatus(res, 200);
  expect(res.body).toEqual({
    object: 'ai.settings',
    engine: 'kb_full_text_search',
    external_model: false,
    search_configuration: 'simple',
    default_max_suggestions: 3,
    max_suggestions_limit: 10,
    articles: 3,
    agents: 0,
    enabled_agents: 0,
  });
});

test('agents: create with defaults, get, update, list and delete', async () => {
  const agent = await created(await api.post(`${ai}/agents`, { name: 'Billing desk' }));
  expect(agent).toEqual({
    object: 'ai.agent',
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    name: 'Billing desk',
    instructions: '',
    tone: 'neutral',
    kb_tags: [],
    kb_article_ids: [],
    max_suggestions: 3,
    enabled: true,
    created_at: clock.now().toISOString(),
    updated_at: clock.now().toISOString(),
  });
  clock.advance(1000);
  const updated = await api.patch(`${ai}/agents/${agent.id}`, {
    tone: 'formal',
    kb_tags: ['billing'],
    kb_article_ids: [articles.delivery.id],
    max_suggestions: 1,
  });
  expectStatus(updated, 200);
  expect(updated.body).toEqual({
    ...agent,
    tone: 'formal',
    kb_tags: ['billing'],
    kb_article_ids: [articles.delivery.id],
    max_suggestions: 1,
    updated_at: clock.now().toISOString(),
  });
  expect((await api.get(`${ai}/agents/${agent.id}`)).body).toEqual(updated.body);
  expect((await api.get(`${ai}/agents`)).body.data.map((a: any) => a.id)).toContain(agent.id);
  expect((await api.get(`${ai}/settings`)).body).toMatchObject({ agents: 1, enabled_agents: 1 });

  expectStatus(await api.delete(`${ai}/agents/${agent.id}`), 200);
  expectPartnerError(await api.get(`${ai}/agents/${agent.id}`), 404, 'agent_not_found');
  expectPartnerError(await api.patch(`${ai}/agents/${agent.id}`, { name: 'x' }), 404, 'agent_not_found');
});

test('an agent may name only articles of its workspace; bad input changes nothing', async () => {
  const count = async () =>
    Number((await platform.db.query('select count(*) as n from ai_agents where workspace_id = $1', [ws.id])).rows[0].n);
  const before = await count();
  expectPartnerError(await api.post(`${ai}/agents`, { name: 'A', kb_article_ids: [newId()] }), 400, 'bad_input', {
    field: 'body.kb_article_ids',
  });
  expectPartnerError(await api.post(`${ai}/agents`, { name: 'A', max_suggestions: 11 }), 400, 'bad_input');
  expectPartnerError(await api.post(`${ai}/agents`, { name: 'A', tone: 'sarcastic' }), 400, 'bad_input');
  const other = await testWorkspace(platform);
  const otherArticle = await created(
    await partnerKeyClient(platform.partnerUrl, (await other.key(['kb:write'])).key).post('/api/v1/inbox/kb/articles', {
      title: 'T',
      body: 'B',
    }),
  );
  expectPartnerError(await api.post(`${ai}/agents`, { name: 'A', kb_article_ids: [otherArticle.id] }), 400, 'bad_input', {
    field: 'body.kb_article_ids',
  });
  expect(await count()).toBe(before);
});

describe('suggestions', () => {
  test('without an agent: the best-ranked articles for any of the message words, each excerpt a suggested reply', async () => {
    const res = await api.post(`${ai}/suggestions`, { text: 'Hello, when will I get my refund for the return?' });
    expectStatus(res, 200);
    expect(res.body.object).toBe('ai.suggestions');
    expect(res.body.agent_id).toBeNull();
    expect(res.body.tone).toBe('neutral');
    const ids = res.body.suggestions.map((s: any) => s.article_id);
    expect(ids[0]).toBe(articles.refunds.id);
    expect(ids).toHaveLength(3);
    // No stemming (the language-neutral configuration): "refunds" would not have matched "refund".
    const [first] = res.body.suggestions;
    expect(first).toMatchObject({ object: 'ai.suggestion', article_title: 'Refunds' });
    expect(first.text).toMatch(/refund/i);
    const ranks = res.body.suggestions.map((s: any) => s.rank);
    expect([...ranks].sort((a: number, b: number) => b - a)).toEqual(ranks);
  });

  test('an agent draws only on its tags and articles, at most max_suggestions', async () => {
    const billing = await created(
      await api.post(`${ai}/agents`, { name: 'Billing', kb_tags: ['billing'], max_suggestions: 5, tone: 'friendly' }),
    );
    const res = await api.post(`${ai}/suggestions`, { text: 'refund please', agent_id: billing.id });
    expect(res.body.agent_id).toBe(billing.id);
    expect(res.body.tone).toBe('friendly');
    expect(res.body.suggestions.map((s: any) => s.article_id).sort()).toEqual([articles.refunds.id, articles.invoices.id].sort());

    const one = await created(
      await api.post(`${ai}/agents`, { name: 'Delivery', kb_article_ids: [articles.delivery.id], max_suggestions: 1 }),
    );
    const single = await api.post(`${ai}/suggestions`, { text: 'refund please', agent_id: one.id });
    expect(single.body.suggestions.map((s: any) => s.article_id)).toEqual([articles.delivery.id]);
  });

  test('no matching words: no suggestions; a missing agent is 404, a disabled one 409', async () => {
    expect((await api.post(`${ai}/suggestions`, { text: 'unicorns!' })).body.suggestions).toEqual([]);
    expect((await api.post(`${ai}/suggestions`, { text: '?!' })).body.suggestions).toEqual([]);
    expectPartnerError(await api.post(`${ai}/suggestions`, { text: 'refund', agent_id: newId() }), 404, 'agent_not_found');
    const off = await created(await api.post(`${ai}/agents`, { name: 'Off', enabled: false }));
    expectPartnerError(await api.post(`${ai}/suggestions`, { text: 'refund', agent_id: off.id }), 409, 'agent_disabled', {
      agent_id: off.id,
    });
  });
});

test('scopes: ai:read, ai:invoke, agents:read and agents:manage each guard their operations', async () => {
  const only = async (scope: string) => partnerKeyClient(platform.partnerUrl, (await ws.key([scope])).key);
  const invoke = await only('ai:invoke');
  expectStatus(await invoke.post(`${ai}/suggestions`, { text: 'refund' }), 200);
  expectPartnerError(await invoke.get(`${ai}/settings`), 403, 'scope_required', { scope: 'ai:read' });
  expectPartnerError(await invoke.get(`${ai}/agents`), 403, 'scope_required', { scope: 'agents:read' });
  const agentsReader = await only('agents:read');
  expectStatus(await agentsReader.get(`${ai}/agents`), 200);
  expectPartnerError(await agentsReader.post(`${ai}/agents`, { name: 'x' }), 403, 'scope_required', { scope: 'agents:manage' });
  expectPartnerError(await agentsReader.post(`${ai}/suggestions`, { text: 'x' }), 403, 'scope_required', { scope: 'ai:invoke' });
});
