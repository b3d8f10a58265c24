// The authorization table of the partner knowledge-base, AI and storage operations: each operation's route, the
// scope the gate requires (null: any valid key of the workspace), its success status and a request that succeeds.
// test/integration/partner/kb-ai-storage-authz.test.ts plays every row and fails for an operation without one.

export interface Fixtures {
  article: string;
  agent: string;
  file: string;
  /** Made fresh for each deletion row. */
  fresh: string;
}

export interface PartnerRow {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  scope: string | null;
  status: number;
  /** What the row deletes fresh (its own record, so other rows keep theirs). */
  deletes?: 'article' | 'agent' | 'file';
  params?: (f: Fixtures) => Record<string, string>;
  query?: string;
  body?: unknown;
  bytes?: Buffer;
}

const article = (f: Fixtures) => ({ id: f.article });
const agent = (f: Fixtures) => ({ id: f.agent });
const file = (f: Fixtures) => ({ id: f.file });
const fresh = (f: Fixtures) => ({ id: f.fresh });

export const partnerKbAiStorageRows: PartnerRow[] = [
  { operationId: 'listKbArticles', method: 'GET', path: '/api/v1/inbox/kb/articles', scope: 'kb:read', status: 200 },
  {
    operationId: 'createKbArticle',
    method: 'POST',
    path: '/api/v1/inbox/kb/articles',
    scope: 'kb:write',
    status: 201,
    body: { title: 'T', body: 'B' },
  },
  { operationId: 'getKbArticle', method: 'GET', path: '/api/v1/inbox/kb/articles/{id}', scope: 'kb:read', status: 200, params: article },
  {
    operationId: 'updateKbArticle',
    method: 'PATCH',
    path: '/api/v1/inbox/kb/articles/{id}',
    scope: 'kb:write',
    status: 200,
    params: article,
    body: { tags: ['x'] },
  },
  {
    operationId: 'deleteKbArticle',
    method: 'DELETE',
    path: '/api/v1/inbox/kb/articles/{id}',
    scope: 'kb:write',
    status: 200,
    params: fresh,
    deletes: 'article',
  },
  { operationId: 'searchKbArticles', method: 'GET', path: '/api/v1/inbox/kb/search', scope: 'kb:read', status: 200, query: 'q=refund' },
  { operationId: 'getAiSettings', method: 'GET', path: '/api/v1/inbox/ai/settings', scope: 'ai:read', status: 200 },
  {
    operationId: 'createAiSuggestions',
    method: 'POST',
    path: '/api/v1/inbox/ai/suggestions',
    scope: 'ai:invoke',
    status: 200,
    body: { text: 'refund' },
  },
  { operationId: 'listAiAgents', method: 'GET', path: '/api/v1/inbox/ai/agents', scope: 'agents:read', status: 200 },
  {
    operationId: 'createAiAgent',
    method: 'POST',
    path: '/api/v1/inbox/ai/agents',
    scope: 'agents:manage',
    status: 201,
    body: { name: 'A' },
  },
  { operationId: 'getAiAgent', method: 'GET', path: '/api/v1/inbox/ai/agents/{id}', scope: 'agents:read', status: 200, params: agent },
  {
    operationId: 'updateAiAgent',
    method: 'PATCH',
    path: '/api/v1/inbox/ai/agents/{id}',
    scope: 'agents:manage',
    status: 200,
    params: agent,
    body: { tone: 'formal' },
  },
  {
    operationId: 'deleteAiAgent',
    method: 'DELETE',
    path: '/api/v1/inbox/ai/agents/{id}',
    scope: 'agents:manage',
    status: 200,
    params: fresh,
    deletes: 'agent',
  },
  {
    operationId: 'uploadStorageFile',
    method: 'POST',
    path: '/api/v1/storage/files',
    scope: null,
    status: 201,
    query: 'file_name=a.txt',
    bytes: Buffer.from('a'),
  },
  { operationId: 'listStorageFiles', method: 'GET', path: '/api/v1/storage/files', scope: null, status: 200 },
  { operationId: 'getStorageFile', method: 'GET', path: '/api/v1/storage/files/{id}', scope: null, status: 200, params: file },
  {
    operationId: 'getStorageFileContent',
    method: 'GET',
    path: '/api/v1/storage/files/{id}/content',
    scope: null,
    status: 200,
    params: file,
  },
  {
    operationId: 'deleteStorageFile',
    method: 'DELETE',
    path: '/api/v1/storage/files/{id}',
    scope: null,
    status: 200,
    params: fresh,
    deletes: 'file',
  },
];
