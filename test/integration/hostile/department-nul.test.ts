// GET /api/v1/employees?department=%00 with a svc_ key was a 500 (PostgreSQL text cannot hold U+0000). The filter is
// a short label like the department it matches: U+0000 and over-long values are 400, a real department still filters.
import { expectSvcError, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';

let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['workspace'] });
  key = (await (await svcWorkspace(platform)).key(['hr.*'])).key;
});
afterAll(async () => {
  await platform?.stop();
});

const employees = (query: string) => call(platform.workspaceUrl, 'GET', `/api/v1/employees${query}`, { headers: svcHeaders(key) });

test('department=%00 is 400 invalid_request naming the parameter', async () => {
  expectSvcError(await employees('?department=%00'), 400, 'invalid_request', 'department');
  expectSvcError(await employees(`?department=Sales%00`), 400, 'invalid_request', 'department');
  expectSvcError(await employees(`?department=${'a'.repeat(101)}`), 400, 'invalid_request', 'department');
});

test('a department filter still finds the employees of that department', async () => {
  const made = await call(platform.workspaceUrl, 'POST', '/api/v1/employees', {
    headers: svcHeaders(key),
    body: { name: 'Ada', department: 'Research' },
  });
  expect(made.status).toBe(201);
  const res = await employees('?department=Research');
  expect(res.status).toBe(200);
  expect(res.body.items.map((e: { id: string }) => e.id)).toEqual([made.body.id]);
  expect((await employees('?department=Sales')).body.items).toEqual([]);
});
