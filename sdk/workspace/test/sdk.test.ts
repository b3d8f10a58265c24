// Drives the real workspace listener through the SDK: every call goes over HTTP to the platform the test run starts
// and every result is the SDK's typed value or its typed WorkspaceApiError.
import { readFile } from 'node:fs/promises';
import { ManualClock } from '../../../src/platform/clock.js';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../../test/support/workspace.js';
import {
  adminOperationRoutes,
  createWorkspaceAdminClient,
  createWorkspaceClient,
  keyOperationRoutes,
  WorkspaceApiError,
  type Schemas,
  type WorkspaceClientOptions,
} from '../src/index.js';

let platform: TestPlatform;
let ws: SvcWorkspace;
let key: string;
const clock = new ManualClock(new Date('2026-11-24T12:00:00.000Z'));

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['workspace'] }, clock);
  ws = await svcWorkspace(platform);
  key = (await ws.key(['crm.*'])).key;
});
afterAll(async () => {
  await platform?.stop();
});

const client = (apiKey: string, options: Partial<WorkspaceClientOptions> = {}) =>
  createWorkspaceClient({ baseUrl: platform.workspaceUrl, apiKey, sleep: async () => {}, ...options });

async function apiError(promise: Promise<unknown>): Promise<WorkspaceApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkspaceApiError) return error;
    throw error;
  }
  throw new Error('expected a WorkspaceApiError, the call succeeded');
}

type Route = { method: string; path: string };

/** The security scheme of an operation: its first declared one, else public under /api/ and probe elsewhere. */
function schemeOf(path: string, security: Array<Record<string, unknown>> | undefined): string {
  return (security ?? []).flatMap((s) => Object.keys(s))[0] ?? (path.startsWith('/api/') ? 'public' : 'probe');
}

/** The routes of generated/openapi/workspace.json by operationId, grouped by security scheme. */
async function documentRoutesByScheme(): Promise<Record<string, Record<string, Route>>> {
  const doc = JSON.parse(await readFile(new URL('../../../generated/openapi/workspace.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string; security?: Array<Record<string, unknown>> }>>;
  };
  const byScheme: Record<string, Record<string, Route>> = { probe: {} };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) (byScheme[schemeOf(path, op.security)] ??= {})[op.operationId] = { method, path };
  }
  return byScheme;
}

test('the route tables match generated/openapi/workspace.json, split by security scheme', async () => {
  const byScheme = await documentRoutesByScheme();
  expect({ ...byScheme['svc-key'], ...byScheme.public }).toEqual({ ...keyOperationRoutes });
  expect(byScheme['bearer-jwt']).toEqual({ ...adminOperationRoutes });
  expect(Object.keys(byScheme.probe!).sort()).toEqual(['getHealth', 'getReadiness']);
});

/** A fetch whose first call answers 502 and second fails on the network; later calls go through. reset() starts over. */
function flakyFetch(): { fetch: (request: Request) => Promise<Response>; calls: () => number; reset: () => void } {
  let calls = 0;
  return {
    calls: () => calls,
    reset: () => void (calls = 0),
    fetch: async (request) => {
      calls++;
      if (calls === 1) return new Response('upstream down', { status: 502 });
      if (calls === 2) throw new TypeError('fetch failed');
      return fetch(request);
    },
  };
}

describe('the key client', () => {
  test('create, get, update, list and paginate leads', async () => {
    const crm = client(key);
    const created = await crm.callWithResponse('createLead', {
      body: { name: 'Ada', email: 'ada@example.com', custom_fields: { tier: 'gold' } },
    });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('x-ratelimit-limit')).toBe('10000');
    const lead: Schemas['Crm.Lead'] = created.data;
    expect(lead).toMatchObject({ name: 'Ada', status: 'new', owner_id: null, custom_fields: { tier: 'gold' } });
    expect(await crm.getLead({ path: { id: lead.id } })).toEqual(lead);
    const updated = await crm.updateLead({ path: { id: lead.id }, body: { status: 'qualified' } });
    expect(updated.status).toBe('qualified');
    const page = await crm.listLeads({ query: { status: 'qualified' } });
    expect(page.items.map((l) => l.id)).toContain(lead.id);

    for (let i = 0; i < 4; i++) await crm.createLead({ body: { name: `Page ${i}` } });
    const seen: string[] = [];
    for await (const l of crm.paginate('listLeads', { query: { limit: 2 } })) seen.push(l.id);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    let pages = 0;
    for await (const p of crm.pages('listLeads', { query: { limit: 2 } })) {
      expect(p.items.length).toBeLessThanOrEqual(2);
      pages++;
    }
    expect(pages).toBe(3);
    expect((await crm.listScopes()).items.length).toBe(61);
  });

  test('errors are typed: code, message, X-Request-ID; nothing is retried that must not be', async () => {
    const reader = client((await ws.key(['crm.read'])).key);
    const forbidden = await apiError(reader.createLead({ body: { name: 'x' } }));
    expect(forbidden).toMatchObject({ status: 403, code: 'forbidden' });
    expect(forbidden.message).toContain('crm.leads.create');
    expect(forbidden.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(forbidden.body).toEqual({ error: 'forbidden', message: forbidden.message });
    const missing = await apiError(reader.getLead({ path: { id: '00000000-0000-4000-8000-000000000000' } }));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expect(await apiError(client('svc_live_' + 'x'.repeat(32)).listLeads())).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(await apiError(reader.listLeads({ query: { cursor: 'nope' } }))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(() => createWorkspaceClient({ baseUrl: platform.workspaceUrl, apiKey: '' })).toThrow(TypeError);
  });

  test('429: waits Retry-After and tries again; a wait longer than maxRetryDelayMs is thrown with retryAfter', async () => {
    const free = await svcWorkspace(platform, { plan: 'free' });
    const freeKey = (await free.key(['crm.read'])).key;
    clock.set(new Date('2026-11-24T12:00:50.000Z'));
    const waits: number[] = [];
    const crm = client(freeKey, {
      sleep: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    });
    for (let i = 0; i < 20; i++) await crm.listLeads();
    const retried = await crm.callWithResponse('listLeads');
    expect(retried.attempts).toBe(2);
    expect(waits).toEqual([10_000]);
    expect(clock.now().toISOString()).toBe('2026-11-24T12:01:00.000Z');

    for (let i = 0; i < 19; i++) await crm.listLeads();
    const impatient = client(freeKey, { maxRetryDelayMs: 5_000 });
    const refused = await apiError(impatient.listLeads());
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 60 });
    expect(refused.response.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  test('5xx and network errors: reads and repeatable writes are retried, creates are not', async () => {
    const flaky = flakyFetch();
    const crm = client(key, { fetch: flaky.fetch });
    expect((await crm.callWithResponse('listLeads')).attempts).toBe(3);
    flaky.reset();
    const unexpected = await apiError(crm.createLead({ body: { name: 'once' } }));
    expect(unexpected).toMatchObject({ status: 502, code: 'unexpected_response', message: 'HTTP 502: upstream down' });
    expect(flaky.calls()).toBe(1);
  });
});

describe('the module families', () => {
  test('typed methods for every family: a converted lead, a won deal, a ticket thread in pages, a decided approval', async () => {
    const rw = client((await ws.key(['read-write'])).key);
    const lead = await rw.createLead({ body: { name: 'Typed' } });
    const conversion: Schemas['Crm.LeadConversion'] = await rw.convertLead({
      path: { id: lead.id },
      body: { amount: 500, currency: 'EUR' },
    });
    expect(conversion.deal).toMatchObject({ lead_id: lead.id, contact_id: conversion.contact.id, amount: 500 });
    expect(await apiError(rw.convertLead({ path: { id: lead.id }, body: {} }))).toMatchObject({ status: 409, code: 'conflict' });
    const won = await rw.updateDeal({ path: { id: conversion.deal.id }, body: { stage: 'won' } });
    expect(won.status).toBe('won');

    const ticket: Schemas['Tickets.Ticket'] = await rw.createTicket({ body: { subject: 'Typed ticket', priority: 'low' } });
    for (let i = 0; i < 3; i++) await rw.createTicketComment({ path: { id: ticket.id }, body: { body: `c${i}` } });
    const bodies: string[] = [];
    for await (const c of rw.paginate('listTicketComments', { path: { id: ticket.id }, query: { limit: 2 } })) bodies.push(c.body);
    expect(bodies).toEqual(['c0', 'c1', 'c2']);

    const approver = await ws.member('manager');
    const requester = await ws.member('staff');
    const approval = await rw.createApproval({ body: { title: 'Typed', requested_by: requester.id, approver_ids: [approver.id] } });
    const decision = await rw.createApprovalDecision({
      path: { id: approval.id },
      body: { approver_id: approver.id, decision: 'approve' },
    });
    expect(decision.step).toBe(1);
    expect((await rw.getApproval({ path: { id: approval.id } })).status).toBe('approved');
    expect(await apiError(rw.cancelApproval({ path: { id: approval.id }, body: { requested_by: approver.id } }))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
  });
});

describe('the administration client', () => {
  test('Owner creates, lists, reads and revokes keys and reads the audit log; a Member gets 403', async () => {
    // Tokens are signed with the real time.
    clock.set(new Date());
    const admin = createWorkspaceAdminClient({ baseUrl: platform.workspaceUrl, token: ws.owner.token, sleep: async () => {} });
    const created = await admin.createSvcKey({
      path: { workspace_id: ws.id },
      body: { name: 'sdk', scopes: ['crm.leads.read'], ip_allow_list: ['127.0.0.1'] },
    });
    expect(created.key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    const crm = client(created.key);
    await crm.listLeads();
    const listed: string[] = [];
    for await (const k of admin.paginate('listSvcKeys', { path: { workspace_id: ws.id }, query: { limit: 2 } })) listed.push(k.id);
    expect(listed).toContain(created.id);
    expect((await admin.getSvcKey({ path: { workspace_id: ws.id, key_id: created.id } })).status).toBe('Active');
    const revoked = await admin.revokeSvcKey({ path: { workspace_id: ws.id, key_id: created.id } });
    expect(revoked.status).toBe('Revoked');
    expect(await apiError(crm.listLeads())).toMatchObject({ status: 401, code: 'unauthorized' });

    await platform.flushSvcAudit!();
    const entries = [];
    for await (const e of admin.paginate('listSvcAuditLog', { path: { workspace_id: ws.id }, query: { key_id: created.id } }))
      entries.push(e);
    expect(entries.map((e) => e.status_code)).toEqual([401, 200]);

    const member = createWorkspaceAdminClient({ baseUrl: platform.workspaceUrl, getToken: async () => (await ws.member('staff')).token });
    expect(await apiError(member.listSvcKeys({ path: { workspace_id: ws.id } }))).toMatchObject({ status: 403, code: 'forbidden' });
  });
});
