// Plays the authorization table of the knowledge-base, AI and storage operations (test/authz/partner-kb-ai-storage-rows.ts)
// over the real listener: every such operation of generated/openapi/partner.json has a row with its route and scope;
// without a key it is 401, with every inbox scope but its own 403 scope_required naming it, a key of another
// workspace never reaches this workspace's records, and a key holding just the scope succeeds. Refused calls change
// nothing.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { partnerKbAiStorageRows, type Fixtures, type PartnerRow } from '../../authz/partner-kb-ai-storage-rows.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { testWorkspace, type TestWorkspace } from '../../support/partner.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';

const inboxScopes = [
  'conversations:*',
  'messages:*',
  'channels:*',
  'ai:read',
  'ai:invoke',
  'kb:read',
  'kb:write',
  'agents:read',
  'agents:manage',
  'webhooks:*',
];
const surfaces = ['/api/v1/inbox/kb', '/api/v1/inbox/ai', '/api/v1/storage'];

let platform: TestPlatform;
let ws: TestWorkspace;
let owner: string;
let fixtures: Omit<Fixtures, 'fresh'>;

async function send(row: PartnerRow, key: string | undefined, f: Fixtures) {
  let path = row.path;
  for (const [name, value] of Object.entries(row.params?.(f) ?? {})) path = path.replace(`{${name}}`, value);
  if (row.query) path += `?${row.query}`;
  const headers: Record<string, string> = {};
  if (key) headers['x-api-key'] = key;
  if (row.method !== 'GET') headers['idempotency-key'] = randomUUID();
  let body: string | Buffer | undefined;
  if (row.bytes) {
    headers['content-type'] = 'application/octet-stream';
    body = row.bytes;
  } else if (row.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(row.body);
  }
  const res = await fetch(`${platform.partnerUrl}${path}`, { method: row.method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* bytes */
  }
  return { status: res.status, body: parsed as any, headers: res.headers };
}

async function make(kind: 'article' | 'agent' | 'file'): Promise<string> {
  const create: Record<typeof kind, PartnerRow> = {
    article: {
      operationId: '',
      method: 'POST',
      path: '/api/v1/inbox/kb/articles',
      scope: null,
      status: 201,
      body: { title: 'Refund', body: 'A refund takes five days.' },
    },
    agent: { operationId: '', method: 'POST', path: '/api/v1/inbox/ai/agents', scope: null, status: 201, body: { name: 'Agent' } },
    file: {
      operationId: '',
      method: 'POST',
      path: '/api/v1/storage/files',
      scope: null,
      status: 201,
      query: 'file_name=f.txt',
      bytes: Buffer.from('file'),
    },
  };
  const res = await send(create[kind], owner, { ...fixtures, fresh: '' });
  if (res.status !== 201) throw new Error(`could not make ${kind}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** Everything a refused call must leave as it was. */
async function fingerprint(): Promise<string> {
  const { rows } = await platform.db.query(
    `select (select json_agg(t order by id) from kb_articles t where workspace_id = $1) as a,
            (select json_agg(t order by id) from ai_agents t where workspace_id = $1) as g,
            (select json_agg(t order by id) from storage_files t where workspace_id = $1) as f`,
    [ws.id],
  );
  return JSON.stringify(rows[0]);
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] });
  ws = await testWorkspace(platform);
  owner = (await ws.key(inboxScopes)).key;
  fixtures = { article: '', agent: '', file: '' };
  fixtures = { article: await make('article'), agent: await make('agent'), file: await make('file') };
});
afterAll(async () => {
  await platform?.stop();
});

/** Every knowledge-base, AI and storage operation of the spec with its method, route and scope (null for none). */
function specOperations(): Map<string, { method: string; path: string; scope: string | null }> {
  const doc = JSON.parse(readFileSync(new URL('../../../generated/openapi/partner.json', import.meta.url), 'utf8'));
  const spec = new Map<string, { method: string; path: string; scope: string | null }>();
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    if (!surfaces.some((s) => path.startsWith(s))) continue;
    for (const [method, op] of Object.entries<any>(item))
      spec.set(op.operationId, { method: method.toUpperCase(), path, scope: op['x-required-scope'] ?? null });
  }
  return spec;
}

/** The fixtures a row's request uses: the shared records, and a fresh record of its own when the row deletes one. */
async function fixturesFor(row: PartnerRow): Promise<Fixtures> {
  return { ...fixtures, fresh: row.deletes ? await make(row.deletes) : '' };
}

/** The scopes of a key that may call the row: its scope, or any scope when the row needs none. */
const scopesFor = (row: PartnerRow): string[] => (row.scope ? [row.scope] : ['kb:read']);

/** Every inbox scope except the one the row needs and its family wildcard. */
const allScopesBut = (scope: string): string[] => inboxScopes.filter((s) => s !== scope && s !== `${scope.split(':')[0]}:*`);

const byOperation = (rows: PartnerRow[]) => rows.map((row) => [row.operationId, row] as const);

test('every knowledge-base, AI and storage operation of the spec has a row with its route and scope', () => {
  const spec = specOperations();
  const rows = new Map(partnerKbAiStorageRows.map((r) => [r.operationId, { method: r.method, path: r.path, scope: r.scope }]));
  expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(spec));
});

describe.each(byOperation(partnerKbAiStorageRows))('%s', (_id, row) => {
  test('refusals (no key, another workspace) change nothing; the scope alone succeeds', async () => {
    const f = await fixturesFor(row);
    const before = await fingerprint();

    expectPartnerError(await send(row, undefined, f), 401, 'invalid_api_key');
    const stranger = await testWorkspace(platform);
    await send(row, (await stranger.key(scopesFor(row))).key, f);
    expect(await fingerprint()).toBe(before);

    const own = (await ws.key(scopesFor(row))).key;
    const res = await send(row, own, f);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: row.status });
  });
});

describe.each(byOperation(partnerKbAiStorageRows.filter((row) => row.scope !== null)))('%s, with a scope', (_id, row) => {
  test('a key with every inbox scope but this one is 403 scope_required naming it, and changes nothing', async () => {
    const f = await fixturesFor(row);
    const before = await fingerprint();
    const without = (await ws.key(allScopesBut(row.scope!))).key;
    expectPartnerError(await send(row, without, f), 403, 'scope_required', { scope: row.scope });
    expect(await fingerprint()).toBe(before);
  });
});

describe.each(byOperation(partnerKbAiStorageRows.filter((row) => row.params !== undefined)))('%s, on a record', (_id, row) => {
  test("another workspace's key does not find this workspace's record: 404, and nothing changes", async () => {
    const f = await fixturesFor(row);
    const before = await fingerprint();
    const stranger = await testWorkspace(platform);
    expect((await send(row, (await stranger.key(scopesFor(row))).key, f)).status).toBe(404);
    expect(await fingerprint()).toBe(before);
  });
});
