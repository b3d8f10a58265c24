// Idempotency-Key on writes made with an API key: required and well-formed; the same key and content replays the
// first result for 24 hours and creates nothing new; other content is 409; identical requests in flight at once,
// on two nodes, create exactly one record; a failed write leaves the key free.
import { randomUUID } from 'node:crypto';
import { pruneIdempotencyKeys } from '../../../src/partner/idempotency/prune.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { count } from '../../helpers/expect.js';
import { expectPartnerError, keyHeaders } from '../../helpers/partner-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../support/partner.js';
import { alternate } from '../../helpers/data.js';

const clock = new ManualClock(new Date('2026-11-21T10:00:00.000Z'));
let platform: TestPlatform;
let second: TestPlatform;
let ws: TestWorkspace;
let key: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] }, clock);
  second = await startTestPlatform({ services: ['partner'] }, clock);
  ws = await testWorkspace(platform);
  key = (await ws.key(['crm_leads:*', 'crm_contacts:*'])).key;
});
afterAll(async () => {
  await second?.stop();
  await platform?.stop();
});

const leads = () => count(platform.db, "select count(*) as n from crm_records where workspace_id = $1 and resource = 'leads'", [ws.id]);
const createLead = (body: unknown, idem?: string, base = platform.partnerUrl, k = key) =>
  call(base, 'POST', '/api/v1/partner/crm/leads', { headers: keyHeaders(k, idem), body });

test('missing Idempotency-Key: 400 bad_input naming the header, nothing created', async () => {
  const before = await leads();
  expectPartnerError(await createLead({ full_name: 'Ada' }), 400, 'bad_input', { field: 'header.idempotency-key' });
  expect(await leads()).toBe(before);
});

test.each(['x'.repeat(65), 'has space', 'slash/no', 'ümlaut'])('a malformed Idempotency-Key (%s): 400 bad_input', async (idem) => {
  const before = await leads();
  expectPartnerError(await createLead({ full_name: 'Ada' }, idem), 400, 'bad_input');
  expect(await leads()).toBe(before);
});

test('the same key and content returns the first result and creates nothing new; key order does not matter', async () => {
  const idem = `k_${randomUUID()}`;
  const before = await leads();
  const first = await createLead({ full_name: 'Ada', email: 'ada@example.com' }, idem);
  expect(first.status).toBe(201);
  const again = await call(platform.partnerUrl, 'POST', '/api/v1/partner/crm/leads', {
    headers: { ...keyHeaders(key, idem), 'content-type': 'application/json' },
    rawBody: '{ "email": "ada@example.com",   "full_name": "Ada" }',
  });
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  expect(again.headers.get('location')).toBe(first.headers.get('location'));
  expect(await leads()).toBe(before + 1);
});

test('the same key with other content: 409 idempotency_conflict and nothing created', async () => {
  const idem = randomUUID();
  expect((await createLead({ full_name: 'Ada' }, idem)).status).toBe(201);
  const before = await leads();
  expectPartnerError(await createLead({ full_name: 'Grace' }, idem), 409, 'idempotency_conflict');
  // Another operation with the same key is other content as well.
  const other = await call(platform.partnerUrl, 'POST', '/api/v1/partner/crm/contacts', {
    headers: keyHeaders(key, idem),
    body: { full_name: 'Ada' },
  });
  expectPartnerError(other, 409, 'idempotency_conflict');
  expect(await leads()).toBe(before);
});

test('PATCH replays too: a repeated update answers the first result even after a later change', async () => {
  const lead = (await createLead({ full_name: 'Ada' }, randomUUID())).body;
  const idem = randomUUID();
  const patch = (body: unknown, k = idem) =>
    call(platform.partnerUrl, 'PATCH', `/api/v1/partner/crm/leads/${lead.id}`, { headers: keyHeaders(key, k), body });
  const first = await patch({ status: 'contacted' });
  expect(first.status).toBe(200);
  expect((await patch({ status: 'qualified' }, randomUUID())).body.status).toBe('qualified');
  const replay = await patch({ status: 'contacted' });
  expect(replay.body).toEqual(first.body);
});

test('identical requests in flight at once on two nodes create exactly one record', async () => {
  const idem = randomUUID();
  const before = await leads();
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      createLead({ full_name: 'Concurrent' }, idem, alternate(i, platform.partnerUrl, second.partnerUrl)),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
  expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
  expect(await leads()).toBe(before + 1);
});

test('a failed write leaves the key free for the corrected request', async () => {
  const idem = randomUUID();
  const contacts = () =>
    count(platform.db, "select count(*) as n from crm_records where workspace_id = $1 and resource = 'contacts'", [ws.id]);
  const before = await contacts();
  const post = (body: unknown) =>
    call(platform.partnerUrl, 'POST', '/api/v1/partner/crm/contacts', { headers: keyHeaders(key, idem), body });
  expectPartnerError(await post({ full_name: 'Ada', company_id: randomUUID() }), 400, 'bad_input');
  expect((await post({ full_name: 'Ada' })).status).toBe(201);
  expect(await contacts()).toBe(before + 1);
});

test('keys are per workspace and environment, and valid for 24 hours', async () => {
  const idem = randomUUID();
  const first = await createLead({ full_name: 'Ada' }, idem);
  // A test key of the same workspace has its own records and its own Idempotency-Keys.
  const testKey = (await ws.key(['crm_leads:*'], { environment: 'test' })).key;
  const inTest = await createLead({ full_name: 'Ada' }, idem, platform.partnerUrl, testKey);
  expect(inTest.status).toBe(201);
  expect(inTest.body.id).not.toBe(first.body.id);
  // Another workspace may use the same key.
  const other = await testWorkspace(platform);
  const elsewhere = await createLead({ full_name: 'Ada' }, idem, platform.partnerUrl, (await other.key(['crm_leads:write'])).key);
  expect(elsewhere.status).toBe(201);

  clock.advance(24 * 60 * 60 * 1000 - 1000);
  expect((await createLead({ full_name: 'Ada' }, idem)).body.id).toBe(first.body.id);
  clock.advance(2000);
  const renewed = await createLead({ full_name: 'Ada' }, idem);
  expect(renewed.status).toBe(201);
  expect(renewed.body.id).not.toBe(first.body.id);
});

// Last: the prune compares with the database's time, so it also removes the records the tests above made on the test clock.
test('the hourly prune removes records older than 24 hours and keeps the younger ones', async () => {
  const [old, young] = [`old_${randomUUID()}`, `young_${randomUUID()}`];
  await platform.db.query(
    `insert into idempotency_keys (workspace_id, idempotency_key, request_hash, response_status, created_at)
     values ($1, $2, $4, 201, now() - interval '25 hours'), ($1, $3, $4, 201, now() - interval '23 hours')`,
    [ws.id, old, young, Buffer.from([0])],
  );
  expect(await pruneIdempotencyKeys(platform.db)).toBeGreaterThanOrEqual(1);
  const left = await platform.db.query<{ idempotency_key: string }>(
    'select idempotency_key from idempotency_keys where idempotency_key = any($1::text[])',
    [[old, young]],
  );
  expect(left.rows.map((r) => r.idempotency_key)).toEqual([young]);
});
