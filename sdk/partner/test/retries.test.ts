// The retry rules, with a scripted fetch in place of the network: what is retried (429 always; 5xx and network
// errors when the call is idempotent), how long the SDK waits, and that a write keeps its Idempotency-Key.
import { createPartnerAdminClient, createPartnerClient, parseRetryAfter, PartnerApiError, UNEXPECTED_RESPONSE } from '../src/index.js';

const baseUrl = 'http://partner.test';
const lead = {
  object: 'crm.lead',
  id: '0196a0b4-0000-7000-8000-000000000001',
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
  full_name: 'Ada',
  email: null,
  phone: null,
  source: null,
  status: 'new',
  company_name: null,
  notes: null,
};

type Step = Response | Error | (() => Response);

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const errorBody = (code: string, requestId = 'req-body', extra: Record<string, unknown> = {}) => ({
  error: { code, message: `${code} happened`, details: {}, ...extra },
  request_id: requestId,
});

/** A fetch that answers from a script, one step per attempt, and records what it was sent. */
function scripted(steps: Step[]) {
  const seen: {
    method: string;
    url: string;
    apiKey: string | null;
    idempotencyKey: string | null;
    authorization: string | null;
    body: string;
  }[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({
      method: request.method,
      url: request.url,
      apiKey: request.headers.get('x-api-key'),
      idempotencyKey: request.headers.get('idempotency-key'),
      authorization: request.headers.get('authorization'),
      body: await request.text(),
    });
    const step = steps.shift();
    if (step === undefined) throw new Error('the script ran out');
    if (step instanceof Error) throw step;
    return typeof step === 'function' ? step() : step;
  };
  return { fetch, seen };
}

function sleeper() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

test('429 then 201: waits Retry-After seconds and resends the write with the same Idempotency-Key and body', async () => {
  const { fetch, seen } = scripted([
    json(429, errorBody('rate_limit_exceeded', 'r1', { retry_after: 2 }), { 'retry-after': '2' }),
    json(201, lead),
  ]);
  const { waits, sleep } = sleeper();
  const crm = createPartnerClient({ baseUrl, apiKey: 'live_abc', fetch, sleep });
  const result = await crm.callWithResponse('createLead', { body: { full_name: 'Ada' } });
  expect(result.data).toEqual(lead);
  expect(result.attempts).toBe(2);
  expect(waits).toEqual([2000]);
  expect(seen).toHaveLength(2);
  expect(seen.map((s) => ({ apiKey: s.apiKey, method: s.method, url: s.url }))).toEqual(
    seen.map(() => ({ apiKey: 'live_abc', method: 'POST', url: `${baseUrl}/api/v1/partner/crm/leads` })),
  );
  expect(seen[0]!.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(seen[1]!.idempotencyKey).toBe(seen[0]!.idempotencyKey);
  expect(result.idempotencyKey).toBe(seen[0]!.idempotencyKey);
  expect(JSON.parse(seen[1]!.body)).toEqual({ full_name: 'Ada' });
});

test('the body retry_after is used when the header is missing; after maxRetries the 429 is thrown', async () => {
  const limited = () => json(429, errorBody('rate_limit_exceeded', 'r2', { retry_after: 3 }));
  const { fetch, seen } = scripted([limited, limited, limited]);
  const { waits, sleep } = sleeper();
  const crm = createPartnerClient({ baseUrl, apiKey: 'live_abc', fetch, sleep, maxRetries: 2 });
  const error = await crm.getLead({ path: { id: lead.id } }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PartnerApiError);
  expect(error).toMatchObject({
    status: 429,
    code: 'rate_limit_exceeded',
    retryAfter: 3,
    requestId: 'r2',
    message: 'rate_limit_exceeded happened',
  });
  expect(seen).toHaveLength(3);
  expect(waits).toEqual([3000, 3000]);
});

test('a Retry-After longer than maxRetryDelayMs is not waited for', async () => {
  const { fetch, seen } = scripted([json(429, errorBody('rate_limit_exceeded'), { 'retry-after': '3600' })]);
  const { waits, sleep } = sleeper();
  const crm = createPartnerClient({ baseUrl, apiKey: 'live_abc', fetch, sleep, maxRetryDelayMs: 60_000 });
  await expect(crm.listLeads()).rejects.toMatchObject({ status: 429, retryAfter: 3600 });
  expect(seen).toHaveLength(1);
  expect(waits).toEqual([]);
});

test('5xx and network errors are retried with capped backoff for key-client calls, reads and writes alike', async () => {
  const { fetch, seen } = scripted([
    json(503, errorBody('unavailable')),
    new TypeError('fetch failed'),
    new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    json(200, lead),
    new TypeError('fetch failed'),
    json(200, lead),
  ]);
  const { waits, sleep } = sleeper();
  const crm = createPartnerClient({ baseUrl, apiKey: 'live_abc', fetch, sleep, maxRetryDelayMs: 700 });
  const got = await crm.callWithResponse('getLead', { path: { id: lead.id } });
  expect(got.attempts).toBe(4);
  expect(waits).toHaveLength(3);
  // Exponential from 500 ms with jitter (half to all of the step), never above the cap.
  expect(waits[0]).toBeGreaterThanOrEqual(250);
  expect(waits[0]).toBeLessThanOrEqual(500);
  for (const w of waits.slice(1)) {
    expect(w).toBeGreaterThanOrEqual(350);
    expect(w).toBeLessThanOrEqual(700);
  }
  expect(seen.slice(0, 4).every((s) => s.idempotencyKey === null)).toBe(true);

  const updated = await crm.callWithResponse(
    'updateLead',
    { path: { id: lead.id }, body: { status: 'contacted' } },
    { idempotencyKey: 'mine-1' },
  );
  expect(updated.attempts).toBe(2);
  expect(seen.slice(4).map((s) => [s.method, s.idempotencyKey])).toEqual([
    ['PATCH', 'mine-1'],
    ['PATCH', 'mine-1'],
  ]);
});

test('errors that a retry cannot fix are thrown at once', async () => {
  for (const status of [400, 401, 403, 404, 409]) {
    const { fetch, seen } = scripted([json(status, errorBody(`code_${status}`))]);
    const crm = createPartnerClient({ baseUrl, apiKey: 'live_abc', fetch, sleep: async () => {} });
    await expect(crm.createLead({ body: { full_name: 'x' } })).rejects.toMatchObject({ status, code: `code_${status}` });
    expect(seen).toHaveLength(1);
  }
});

test('a network error after the last retry, or on an aborted call, is rethrown as it is', async () => {
  const { fetch, seen } = scripted([new TypeError('fetch failed'), new TypeError('fetch failed again')]);
  const crm = createPartnerClient({ baseUrl, apiKey: 'live_abc', fetch, sleep: async () => {}, maxRetries: 1 });
  await expect(crm.listLeads()).rejects.toThrow('fetch failed again');
  expect(seen).toHaveLength(2);

  // fetch rejects an aborted call with the signal's reason; the SDK passes it on without waiting to retry.
  const controller = new AbortController();
  controller.abort();
  let calls = 0;
  const { waits, sleep } = sleeper();
  const crm2 = createPartnerClient({
    baseUrl,
    apiKey: 'live_abc',
    fetch: async (request) => {
      calls++;
      throw request.signal.reason;
    },
    sleep,
  });
  await expect(crm2.getLead({ path: { id: lead.id } }, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  expect(calls).toBe(1);
  expect(waits).toEqual([]);
});

test('the default sleep stops waiting when the signal aborts', async () => {
  const { fetch } = scripted([json(429, errorBody('rate_limit_exceeded'), { 'retry-after': '30' })]);
  const crm = createPartnerClient({ baseUrl, apiKey: 'live_abc', fetch });
  const started = Date.now();
  await expect(crm.listLeads(undefined, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
  expect(Date.now() - started).toBeLessThan(5000);
});

test('administration POSTs are retried on 429 but not on 5xx or network errors; PUTs and GETs are', async () => {
  const workspace = {
    object: 'workspace',
    id: lead.id,
    name: 'W',
    plan: 'free',
    external_api_enabled: false,
    owner_id: lead.id,
    my_role: 'owner',
    created_at: lead.created_at,
  };
  const { fetch, seen } = scripted([
    json(429, errorBody('rate_limit_exceeded'), { 'retry-after': '1' }),
    json(201, workspace),
    json(500, errorBody('internal')),
    new TypeError('fetch failed'),
    json(500, errorBody('internal')),
    json(200, workspace),
  ]);
  const { waits, sleep } = sleeper();
  let asked = 0;
  const admin = createPartnerAdminClient({ baseUrl, getToken: () => `t${++asked}`, fetch, sleep });
  expect(await admin.createWorkspace({ body: { name: 'W' } })).toEqual(workspace);
  expect(waits).toEqual([1000]);
  await expect(admin.createWorkspace({ body: { name: 'W' } })).rejects.toMatchObject({ status: 500, code: 'internal' });
  await expect(admin.createWorkspace({ body: { name: 'W' } })).rejects.toThrow('fetch failed');
  expect(await admin.setWorkspacePlan({ path: { workspace_id: lead.id }, body: { plan: 'business' } })).toEqual(workspace);
  expect(seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST', 'POST', 'PUT', 'PUT']);
  // The token provider is asked once per attempt; no API key or Idempotency-Key is sent.
  expect(seen.map((s) => s.authorization)).toEqual(['Bearer t1', 'Bearer t2', 'Bearer t3', 'Bearer t4', 'Bearer t5', 'Bearer t6']);
  expect(seen.map((s) => ({ apiKey: s.apiKey, idempotencyKey: s.idempotencyKey }))).toEqual(
    seen.map(() => ({ apiKey: null, idempotencyKey: null })),
  );
});

test('error bodies: request_id from the body, else the X-Request-Id header; other bodies are unexpected_response', async () => {
  const { fetch } = scripted([
    json(
      404,
      { error: { code: 'lead_not_found', message: 'Lead was not found.', details: { id: 'x' } }, request_id: 'from-body' },
      { 'x-request-id': 'from-header' },
    ),
    json(404, { error: { code: 'lead_not_found', message: 'Lead was not found.', details: {} } }, { 'x-request-id': 'from-header' }),
    new Response('<html>teapot</html>', { status: 418, statusText: "I'm a teapot", headers: { 'x-request-id': 'h2' } }),
  ]);
  const crm = createPartnerClient({ baseUrl, apiKey: 'live_abc', fetch, sleep: async () => {} });
  await expect(crm.getLead({ path: { id: lead.id } })).rejects.toMatchObject({
    requestId: 'from-body',
    details: { id: 'x' },
    message: 'Lead was not found.',
  });
  await expect(crm.getLead({ path: { id: lead.id } })).rejects.toMatchObject({ requestId: 'from-header', code: 'lead_not_found' });
  const other = (await crm.getLead({ path: { id: lead.id } }).catch((e: unknown) => e)) as PartnerApiError;
  expect(other).toMatchObject({ status: 418, code: UNEXPECTED_RESPONSE, requestId: 'h2', details: {} });
  expect(other.message).toContain("HTTP 418 I'm a teapot: <html>teapot</html>");
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  expect(parseRetryAfter('17', now)).toBe(17);
  expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30);
  expect(parseRetryAfter(null, now)).toBeUndefined();
  expect(parseRetryAfter('soon', now)).toBeUndefined();
});

test('options are checked when the client is made', () => {
  expect(() => createPartnerClient({ baseUrl, apiKey: 'k', maxRetries: -1 })).toThrow(RangeError);
  expect(() => createPartnerClient({ baseUrl: '', apiKey: 'k' })).toThrow(TypeError);
  expect(() => createPartnerClient({ baseUrl } as never)).toThrow(TypeError);
  expect(() => createPartnerAdminClient({ baseUrl } as never)).toThrow(TypeError);
});
