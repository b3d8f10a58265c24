// The presets "Conversations + AI" and "KB read": a key created with the preset by the workspace's Owner can do
// what its scopes say on the knowledge-base and AI paths this listener serves, and gets 403 scope_required naming
// the missing scope outside them.
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { expectPartnerError } from '../../../test/helpers/partner-expect.js';
import { expectStatus, partnerKeyClient, type PartnerKeyClient } from '../../../test/support/partner-client.js';
import { scopePresets } from '../scopes/catalogue.js';

let platform: TestPlatform;
let ws: TestWorkspace;
let article: { id: string };
let agentId: string;

/** A key made through the administration API with the preset's name, as the settings page does. */
async function presetKey(preset: string): Promise<PartnerKeyClient> {
  const res = await call(platform.partnerUrl, 'POST', `/api/v1/workspaces/${ws.id}/api-keys`, {
    token: ws.owner.token,
    body: { name: preset, preset },
  });
  expectStatus(res, 201);
  expect(res.body.scopes).toEqual(scopePresets[preset]);
  return partnerKeyClient(platform.partnerUrl, res.body.key);
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] });
  ws = await testWorkspace(platform);
  const admin = partnerKeyClient(platform.partnerUrl, (await ws.key(['kb:*', 'agents:*'])).key);
  const created = await admin.post('/api/v1/inbox/kb/articles', { title: 'Refunds', body: 'A refund takes five days.', tags: ['billing'] });
  expectStatus(created, 201);
  article = created.body;
  const agent = await admin.post('/api/v1/inbox/ai/agents', { name: 'Billing', kb_tags: ['billing'] });
  expectStatus(agent, 201);
  agentId = agent.body.id;
});
afterAll(async () => {
  await platform?.stop();
});

test('Conversations + AI: reads the AI settings and invokes suggestions; the knowledge base and agents are outside', async () => {
  const key = await presetKey('Conversations + AI');
  expectStatus(await key.get('/api/v1/inbox/ai/settings'), 200);
  const suggested = await key.post('/api/v1/inbox/ai/suggestions', { text: 'where is my refund', agent_id: agentId });
  expectStatus(suggested, 200);
  expect(suggested.body.suggestions.map((s: { article_id: string }) => s.article_id)).toEqual([article.id]);

  expectPartnerError(await key.get('/api/v1/inbox/kb/articles'), 403, 'scope_required', { scope: 'kb:read' });
  expectPartnerError(await key.post('/api/v1/inbox/kb/articles', { title: 'T', body: 'B' }), 403, 'scope_required', { scope: 'kb:write' });
  expectPartnerError(await key.get('/api/v1/inbox/ai/agents'), 403, 'scope_required', { scope: 'agents:read' });
  expectPartnerError(await key.post('/api/v1/inbox/ai/agents', { name: 'x' }), 403, 'scope_required', { scope: 'agents:manage' });
  expectPartnerError(await key.get('/api/v1/partner/crm/leads'), 403, 'scope_required', { scope: 'crm_leads:read' });
});

test('KB read: lists, reads and searches articles; writing, AI and agents are outside', async () => {
  const key = await presetKey('KB read');
  const list = await key.get('/api/v1/inbox/kb/articles');
  expectStatus(list, 200);
  expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([article.id]);
  expectStatus(await key.get(`/api/v1/inbox/kb/articles/${article.id}`), 200);
  const found = await key.get('/api/v1/inbox/kb/search?q=refund');
  expect(found.body.data.map((m: { article: { id: string } }) => m.article.id)).toEqual([article.id]);

  expectPartnerError(await key.post('/api/v1/inbox/kb/articles', { title: 'T', body: 'B' }), 403, 'scope_required', { scope: 'kb:write' });
  expectPartnerError(await key.patch(`/api/v1/inbox/kb/articles/${article.id}`, { title: 'T' }), 403, 'scope_required', {
    scope: 'kb:write',
  });
  expectPartnerError(await key.delete(`/api/v1/inbox/kb/articles/${article.id}`), 403, 'scope_required', { scope: 'kb:write' });
  expectPartnerError(await key.get('/api/v1/inbox/ai/settings'), 403, 'scope_required', { scope: 'ai:read' });
  expectPartnerError(await key.post('/api/v1/inbox/ai/suggestions', { text: 'refund' }), 403, 'scope_required', { scope: 'ai:invoke' });
  expectPartnerError(await key.get('/api/v1/inbox/ai/agents'), 403, 'scope_required', { scope: 'agents:read' });
  // The refused write changed nothing.
  expect((await key.get(`/api/v1/inbox/kb/articles/${article.id}`)).body.title).toBe('Refunds');
});
