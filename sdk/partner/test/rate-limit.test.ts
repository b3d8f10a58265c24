// 429 against the real rate counter: a platform of its own with a tiny allowance, a Redis database of its own (other
// test files on 127.0.0.1 must not share the counter) and a manual clock that the SDK's injected sleep moves, so
// honouring Retry-After takes no real time.
import { ManualClock } from '../../../src/platform/clock.js';
import { isolatedInfra, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace } from '../../../test/support/partner.js';
import { createPartnerClient, PartnerApiError } from '../src/index.js';

let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
// 20 s into a minute: the per-minute window resets in 40 s.
const clock = new ManualClock(new Date('2026-11-21T10:00:20.000Z'));

beforeAll(async () => {
  infra = await isolatedInfra();
  platform = await startTestPlatform(
    { services: ['partner'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, rateLimitPerMinute: 2, rateLimitPerDay: 1000 },
    clock,
  );
});
afterAll(async () => {
  await platform?.stop();
  await infra?.drop();
});

test('a 429 is retried after exactly Retry-After seconds, with the same Idempotency-Key; past maxRetries it throws', async () => {
  const ws = await testWorkspace(platform);
  const apiKey = (await ws.key(['crm_leads:*'])).key;
  const waits: number[] = [];
  const sent: { status: number; key: string | null }[] = [];
  const crm = createPartnerClient({
    baseUrl: platform.partnerUrl,
    apiKey,
    fetch: async (request) => {
      const response = await fetch(request);
      sent.push({ status: response.status, key: request.headers.get('idempotency-key') });
      return response;
    },
    sleep: async (ms) => {
      waits.push(ms);
      clock.advance(ms);
    },
  });

  // Two requests use up the minute.
  await crm.getApiIdentity();
  await crm.listLeads();
  expect(waits).toEqual([]);

  // The third is refused with Retry-After 40; the SDK waits that long (on the manual clock) and the retry, in the
  // next minute, creates the lead.
  const created = await crm.callWithResponse('createLead', { body: { full_name: 'After the wait' } });
  expect(waits).toEqual([40_000]);
  expect(created.attempts).toBe(2);
  expect(sent.slice(2).map((s) => s.status)).toEqual([429, 201]);
  expect(sent[2]!.key).toBeTruthy();
  expect(sent[3]!.key).toBe(sent[2]!.key);
  expect(created.data.full_name).toBe('After the wait');

  // One left in this minute; then the next call is refused and, with retries off, thrown with what the server said.
  await crm.getLead({ path: { id: created.data.id } });
  let error: unknown;
  try {
    await crm.listLeads(undefined, { maxRetries: 0 });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(PartnerApiError);
  const limited = error as PartnerApiError;
  expect(limited).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 60, details: { window: 'minute' } });
  expect(limited.requestId).toBe(limited.response.headers.get('x-request-id'));
  expect(waits).toEqual([40_000]);

  // Pagination goes through the same retries: the page is refused, waited for, then fetched in the next minute.
  const ids: string[] = [];
  for await (const lead of crm.paginate('listLeads', {}, { maxRetries: 2 })) ids.push(lead.id);
  expect(ids).toEqual([created.data.id]);
  expect(waits).toEqual([40_000, 60_000]);

  // A Retry-After longer than maxRetryDelayMs is not waited for: the error comes back at once.
  await crm.getApiIdentity();
  const impatient = createPartnerClient({
    baseUrl: platform.partnerUrl,
    apiKey,
    maxRetryDelayMs: 5_000,
    sleep: async (ms) => void waits.push(ms),
  });
  await expect(impatient.getApiIdentity()).rejects.toMatchObject({ status: 429, retryAfter: 60 });
  expect(waits).toEqual([40_000, 60_000]);
});
