// The inbox report over the real listener: opened and closed counts, first-response and resolution medians and
// means by UTC day and channel, the range and channel filters, the partition, the scope and bad ranges.
import { ManualClock } from '../../platform/clock.js';
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { insertConversation } from '../../../test/support/inbox.js';
import { expectPartnerError, keyHeaders } from '../../../test/helpers/partner-expect.js';

const clock = new ManualClock(new Date('2026-11-25T09:00:00.000Z'));
let platform: TestPlatform;
let ws: TestWorkspace;
let reader: string;

const at = (iso: string) => new Date(iso);
const report = (key: string, query: string) =>
  call(platform.partnerUrl, 'GET', `/api/v1/reports/inbox?${query}`, { headers: keyHeaders(key) });

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] }, clock);
  ws = await testWorkspace(platform);
  reader = (await ws.key(['conversations:read'])).key;
  const w = ws.id;
  // 2026-11-01, email: three opened; replies after 60 s, 180 s and none; two closed the same day after 600 s and 1200 s.
  await insertConversation(platform.db, {
    workspaceId: w,
    createdAt: at('2026-11-01T08:00:00Z'),
    firstResponseAt: at('2026-11-01T08:01:00Z'),
    closedAt: at('2026-11-01T08:10:00Z'),
  });
  await insertConversation(platform.db, {
    workspaceId: w,
    createdAt: at('2026-11-01T09:00:00Z'),
    firstResponseAt: at('2026-11-01T09:03:00Z'),
    closedAt: at('2026-11-01T09:20:00Z'),
  });
  await insertConversation(platform.db, { workspaceId: w, createdAt: at('2026-11-01T23:59:59Z') });
  // 2026-11-01, whatsapp: one opened, replied after 30 s, closed the next day after one day.
  await insertConversation(platform.db, {
    workspaceId: w,
    channel: 'whatsapp',
    createdAt: at('2026-11-01T12:00:00Z'),
    firstResponseAt: at('2026-11-01T12:00:30Z'),
    closedAt: at('2026-11-02T12:00:00Z'),
  });
  // Outside the range, another environment and another workspace: never counted.
  await insertConversation(platform.db, { workspaceId: w, createdAt: at('2026-10-31T23:59:59Z') });
  await insertConversation(platform.db, { workspaceId: w, environment: 'test', createdAt: at('2026-11-01T10:00:00Z') });
  await insertConversation(platform.db, { workspaceId: (await testWorkspace(platform)).id, createdAt: at('2026-11-01T10:00:00Z') });
});
afterAll(async () => {
  await platform?.stop();
});

test('counts and times by day and channel over the range', async () => {
  const res = await report(reader, 'from=2026-11-01&to=2026-11-02');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    object: 'inbox.report',
    from: '2026-11-01',
    to: '2026-11-02',
    channel: null,
    data: [
      {
        object: 'inbox.report_row',
        day: '2026-11-01',
        channel: 'email',
        opened: 3,
        closed: 2,
        first_response_count: 2,
        first_response_median_seconds: 120,
        first_response_mean_seconds: 120,
        resolution_count: 2,
        resolution_median_seconds: 900,
        resolution_mean_seconds: 900,
      },
      {
        object: 'inbox.report_row',
        day: '2026-11-01',
        channel: 'whatsapp',
        opened: 1,
        closed: 0,
        first_response_count: 1,
        first_response_median_seconds: 30,
        first_response_mean_seconds: 30,
        resolution_count: 0,
        resolution_median_seconds: null,
        resolution_mean_seconds: null,
      },
      {
        object: 'inbox.report_row',
        day: '2026-11-02',
        channel: 'whatsapp',
        opened: 0,
        closed: 1,
        first_response_count: 0,
        first_response_median_seconds: null,
        first_response_mean_seconds: null,
        resolution_count: 1,
        resolution_median_seconds: 86_400,
        resolution_mean_seconds: 86_400,
      },
    ],
  });
});

test('a one-day range and a channel filter narrow it', async () => {
  const day = await report(reader, 'from=2026-11-02&to=2026-11-02');
  expect(day.body.data.map((r: { day: string; channel: string }) => `${r.day} ${r.channel}`)).toEqual(['2026-11-02 whatsapp']);
  const email = await report(reader, 'from=2026-10-01&to=2026-11-30&channel=email');
  expect(email.body.channel).toBe('email');
  expect(email.body.data.map((r: { day: string; opened: number }) => [r.day, r.opened])).toEqual([
    ['2026-10-31', 1],
    ['2026-11-01', 3],
  ]);
  const empty = await report(reader, 'from=2025-01-01&to=2025-01-31');
  expect(empty.body.data).toEqual([]);
});

test('bad ranges are 400 naming the field; the scope is conversations:read', async () => {
  expectPartnerError(await report(reader, 'from=2026-11-02&to=2026-11-01'), 400, 'bad_input', { field: 'query.to' });
  expectPartnerError(await report(reader, 'from=2025-01-01&to=2026-01-02'), 400, 'bad_input', { field: 'query.to' });
  expect((await report(reader, 'from=2025-01-01&to=2026-01-01')).status).toBe(200);
  expectPartnerError(await report(reader, 'from=2026-02-30&to=2026-03-01'), 400, 'bad_input');
  // Year 0 is a date to JavaScript but not to PostgreSQL: refused by the one date rule, not a 500 from SQL.
  expectPartnerError(await report(reader, 'from=0000-01-01&to=0000-01-02'), 400, 'bad_input', { field: 'query.from' });
  expect((await report(reader, 'from=0001-01-01&to=0001-01-02')).status).toBe(200);
  expectPartnerError(await report(reader, 'to=2026-03-01'), 400, 'bad_input');
  expectPartnerError(await report(reader, 'from=2026-03-01&to=2026-03-02&channel=fax'), 400, 'bad_input');
  const other = (await ws.key(['messages:read', 'channels:read'])).key;
  expectPartnerError(await report(other, 'from=2026-11-01&to=2026-11-02'), 403, 'scope_required', { scope: 'conversations:read' });
});
