// The delivery engine end to end: events written to the outbox (topic svc.event, as workspace changes write them)
// reach a real HTTPS receiver signed over the exact bytes sent, with the seed's headers; failures are retried on the
// schedule (WEBHOOK_RETRY_SCHEDULE shortened to seconds), permanent 4xx are not, the last failure pauses the webhook
// and mails its Owner through real SMTP; a receiver that is down for a while gets every event once it is back;
// resend keeps the delivery id (the envelope's id), replay makes a new one; the log keeps the 200 most recent; what
// the receiver gets matches the webhooks map of both listeners' served /openapi.json.
import { createHmac } from 'node:crypto';
import { count } from '../../helpers/expect.js';
import { expectSvcError } from '../../helpers/workspace-expect.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { deduplicatedByBodyId, emitEvent, eventually, requestsOf, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';
import { verifyWebhook } from '../../../sdk/workspace/src/index.js';
import { envelopeText } from '../../../src/core/webhooks/events.js';
import type { TestPlatform } from '../../support/platform.js';
import { deliveryContract } from '../../support/webhook-contract.js';
import type { Responder } from '../../support/webhook-receiver.js';
import { holds } from '../../helpers/wait.js';
import { withFields } from '../../helpers/match.js';
import { requestsMatching } from '../../helpers/received.js';
import { cursorParam, svcNextCursor, walkPages } from '../../helpers/paging.js';

let rig: WebhookRig;
let platform: TestPlatform;

beforeAll(async () => {
  rig = await webhookRig();
  platform = rig.platform;
});
afterAll(async () => {
  await rig?.stop();
});

interface Hook {
  id: string;
  secret: string;
  ws: SvcWorkspace;
  key: string;
}

/** A workspace with one webhook on its own receiver path, answered by `answer` (the ping always gets 200). */
async function hookOn(
  path: string,
  events: string[],
  answer: (attempt: number, deliveryId: string) => number,
  body: Record<string, unknown> = {},
): Promise<Hook> {
  const ws = await svcWorkspace(platform);
  const key = (await ws.key(['webhook.*'])).key;
  rig.receiver.respond((r) => {
    const hookPath = r.path.split('?')[0]!;
    const handler = routes.get(hookPath);
    if (!handler || r.headers['x-svc-event'] === 'ping') return { status: 200, body: 'ok' };
    return {
      status: handler(Number(r.headers['x-svc-attempt']), String(r.headers['x-svc-delivery'])),
      body: `answer to ${r.headers['x-svc-attempt']}`,
    };
  });
  routes.set(path, answer);
  const res = await svc(platform, key, 'POST', '/api/v1/webhooks', {
    name: `hook ${path}`,
    url: `${rig.receiver.origin}${path}`,
    events,
    ...body,
  });
  expect(res.status).toBe(201);
  return { id: res.body.id, secret: res.body.secret, ws, key };
}
const routes = new Map<string, (attempt: number, deliveryId: string) => number>();

const deliveryRows = async (webhookId: string) =>
  (
    await platform.db.query(
      "select id, status, attempt_count, event_id, error, response_status from webhook_deliveries where webhook_id = $1 and kind <> 'ping' order by id",
      [webhookId],
    )
  ).rows;

async function settled(webhookId: string, n: number, statuses = ['succeeded', 'failed']) {
  return eventually(
    async () => {
      const rows = await deliveryRows(webhookId);
      return rows.length === n && rows.every((r) => statuses.includes(r.status)) ? rows : undefined;
    },
    30_000,
    `${n} settled deliveries`,
  );
}

test('the envelope and the seed headers, signed over exactly the bytes sent', async () => {
  const hook = await hookOn('/exact', ['deal.stage_changed'], () => 200, { headers: { 'X-Tenant': 'acme' } });
  const emitted = await emitEvent(platform.db, {
    workspaceId: hook.ws.id,
    event: 'deal.stage_changed',
    data: { id: 'd-1', name: 'Große Übernahme', stage: 'won', amount: 1250.5, owner_id: null },
    changes: { stage: { from: 'proposal', to: 'won' } },
  });
  const [row] = await settled(hook.id, 1);
  const [req] = requestsOf(rig.receiver, row.event_id);
  expect(req).toBeDefined();
  expect(req!.method).toBe('POST');
  // The bytes stored once at intake, sent and signed as they are (the seed's field order; nested keys as the outbox
  // kept them); the same envelope that was written.
  const stored = (await platform.db.query('select envelope from webhook_deliveries where id = $1', [row.id])).rows[0].envelope;
  expect(req!.body.toString('utf8')).toBe(stored);
  expect(stored).toBe(envelopeText(emitted));
  expect(JSON.parse(req!.body.toString('utf8'))).toEqual(emitted);
  const h = req!.headers;
  expect(h['content-type']).toBe('application/json');
  expect(h['user-agent']).toBe('Svc-Webhook/1.0');
  expect(h['x-svc-event']).toBe('deal.stage_changed');
  expect(h['x-svc-delivery']).toBe(emitted.id);
  expect(h['x-svc-workspace']).toBe(hook.ws.id);
  expect(h['x-svc-attempt']).toBe('1');
  expect(h['x-tenant']).toBe('acme');
  expect(Math.abs(Number(h['x-svc-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  expect(h['x-svc-signature']).toBe(`sha256=${createHmac('sha256', hook.secret).update(req!.body).digest('hex')}`);
  const verified = await verifyWebhook({
    rawBody: req!.body,
    headers: h,
    secret: hook.secret,
    toleranceSeconds: 300,
    requireTimestampSignature: true,
  });
  expect(verified).toMatchObject({
    deliveryId: emitted.id,
    event: 'deal.stage_changed',
    workspaceId: hook.ws.id,
    attempt: 1,
    envelope: emitted,
  });
  expect(row).toMatchObject({ status: 'succeeded', attempt_count: 1, event_id: emitted.id, response_status: 200 });
});

test('5xx, 408, 429 and time-outs are retried on the schedule with the same delivery id', async () => {
  const sequence = [500, 408, 429, 0 /* time-out */, 200];
  const hook = await hookOn('/flaky', ['lead.created'], answersThen200(sequence));
  rig.receiver.respond(slowOnAttempt('/flaky', '4', 2_500, responderOf()));
  await emitEvent(platform.db, { workspaceId: hook.ws.id, event: 'lead.created' });
  const [row] = await settled(hook.id, 1);
  const requests = requestsOf(rig.receiver, row.event_id);
  expect(requests.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2', '3', '4', '5']);
  // Never earlier than the schedule (1 s between attempts here; the 4th waited out the 2 s time-out).
  for (let i = 1; i < requests.length; i++) expect(requests[i]!.at - requests[i - 1]!.at).toBeGreaterThanOrEqual(900);
  // Every attempt is signed afresh: its X-SVC-Timestamp is the time it was sent, not the first attempt's, and its
  // signatures verify over that timestamp.
  for (const r of requests) {
    const attempt = Number(r.headers['x-svc-attempt']);
    expect({ attempt, skew: Math.abs(Number(r.headers['x-svc-timestamp']) - r.at / 1000) < 2 }).toEqual({ attempt, skew: true });
    const verified = await verifyWebhook({
      rawBody: r.body,
      headers: r.headers,
      secret: hook.secret,
      toleranceSeconds: 300,
      requireTimestampSignature: true,
    });
    expect(verified).toMatchObject({ attempt });
  }
  expect(Number(requests.at(-1)!.headers['x-svc-timestamp'])).toBeGreaterThan(Number(requests[0]!.headers['x-svc-timestamp']));
  expect(row).toMatchObject({ status: 'succeeded', attempt_count: 5, response_status: 200 });
  const webhook = (await svc(platform, hook.key, 'GET', `/api/v1/webhooks/${hook.id}`)).body;
  expect(webhook).toMatchObject({ status: 'Active', consecutive_failures: 0 });
});

/** Answers by attempt number (from 1): these statuses first, 200 after them. */
const answersThen200 = (statuses: number[]) => (attempt: number) => statuses[attempt - 1] ?? 200;

/** The responder, except that the attempt of the path is answered 200 only after the delay (a time-out). */
function slowOnAttempt(path: string, attempt: string, delayMs: number, previous: Responder): Responder {
  return (r) => (r.path === path && r.headers['x-svc-attempt'] === attempt ? { status: 200, delayMs } : previous(r));
}

/** The responder, except that the first request to the path is answered 500. */
function failingFirstOn(path: string, previous: Responder): Responder {
  let first = true;
  return (r) => (r.path === path && first ? ((first = false), { status: 500 }) : previous(r));
}

/** Answers 500 to the first attempt of the event's deliveries, 200 to everything else. */
function failingFirstAttemptOf(event: string): Responder {
  return (r) => ({ status: r.headers['x-svc-event'] === event && r.headers['x-svc-attempt'] === '1' ? 500 : 200, body: 'ok' });
}

/** A receiver that answers the status while it is down and 200 once back(). */
function outage(status: number): { answer: () => number; back: () => void } {
  let down = true;
  return { answer: () => (down ? status : 200), back: () => void (down = false) };
}

/** Whether the webhook has n deliveries, each attempted at least `attempts` times (`true`, else undefined). */
async function allAttempted(webhookId: string, n: number, attempts: number): Promise<true | undefined> {
  const rows = await deliveryRows(webhookId);
  return holds(rows.length === n && rows.every((r) => r.attempt_count >= attempts));
}

/** Whether the webhook's log holds n deliveries, none pending or sending (`true`, else undefined). */
async function logSettledAt(webhookId: string, n: number): Promise<true | undefined> {
  const total = await count(platform.db, 'select count(*) as n from webhook_deliveries where webhook_id = $1', [webhookId]);
  const pending = await count(
    platform.db,
    "select count(*) as n from webhook_deliveries where webhook_id = $1 and status in ('pending', 'sending')",
    [webhookId],
  );
  return holds(pending === 0 && total === n);
}

function responderOf() {
  return (r: { path: string; headers: Record<string, unknown> }) => {
    const handler = routes.get(r.path.split('?')[0]!);
    if (!handler || r.headers['x-svc-event'] === 'ping') return { status: 200, body: 'ok' };
    return { status: handler(Number(r.headers['x-svc-attempt']), String(r.headers['x-svc-delivery'])) };
  };
}

test('a 4xx other than 408 and 429 is permanent: one attempt, failed, the webhook stays Active', async () => {
  const hook = await hookOn('/gone', ['lead.created'], () => 410);
  await emitEvent(platform.db, { workspaceId: hook.ws.id, event: 'lead.created' });
  const [row] = await settled(hook.id, 1);
  expect(row).toMatchObject({ status: 'failed', attempt_count: 1, response_status: 410 });
  expect(row.error).toContain('permanent');
  expect(requestsOf(rig.receiver, row.event_id)).toHaveLength(1);
  expect((await svc(platform, hook.key, 'GET', `/api/v1/webhooks/${hook.id}`)).body).toMatchObject({
    status: 'Active',
    consecutive_failures: 1,
  });
});

test('after 6 failed attempts the webhook is Paused and its Owner is mailed; held events go out after resume', async () => {
  const receiver = outage(503);
  const hook = await hookOn('/down', ['lead.created', 'lead.updated'], receiver.answer);
  await platform.db.query('update accounts set email = $2 where id = $1', [hook.ws.owner.id, `owner-${hook.ws.id}@example.com`]);
  const mailsBefore = rig.smtp.mails.length;
  await emitEvent(platform.db, { workspaceId: hook.ws.id, event: 'lead.created' });
  const [failed] = await settled(hook.id, 1);
  expect(failed).toMatchObject({ status: 'failed', attempt_count: 6, response_status: 503 });
  expect(failed.error).toContain('every attempt failed');
  expect(requestsOf(rig.receiver, failed.event_id).map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2', '3', '4', '5', '6']);
  const paused = (await svc(platform, hook.key, 'GET', `/api/v1/webhooks/${hook.id}`)).body;
  expect(paused).toMatchObject({ status: 'Paused', paused_reason: 'failures', consecutive_failures: 6 });

  await rig.smtp.waitFor(mailsBefore + 1);
  const mail = rig.smtp.mails.slice(mailsBefore).find((m) => m.to.includes(`owner-${hook.ws.id}@example.com`));
  expect(mail).toBeDefined();
  expect(mail!.subject).toBe('Webhook "hook /down" was paused after 6 failed delivery attempts');
  expect(mail!.text).toContain(hook.id);
  expect(mail!.text).toContain(`${rig.receiver.origin}/down`);
  expect(mail!.text).toContain('HTTP 503');
  await eventually(async () =>
    holds((await count(platform.db, 'select count(*) as n from webhooks where id = $1 and not notice_pending', [hook.id])) === 1),
  );
  expect(
    await count(platform.db, "select count(*) as n from outbox where topic = 'webhook.paused' and payload->>'webhookId' = $1", [hook.id]),
  ).toBe(1);

  // Paused: events are held, not sent.
  const held = await emitEvent(platform.db, { workspaceId: hook.ws.id, event: 'lead.updated' });
  const heldRow = await eventually(async () => (await deliveryRows(hook.id)).find(withFields({ event_id: held.id, status: 'held' })));
  receiver.back();
  const resumed = await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/resume`);
  expect(resumed.body).toMatchObject({ status: 'Active', paused_reason: null, consecutive_failures: 0 });
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, heldRow.event_id).length === 1);
  expect(rig.smtp.mails.filter((m) => m.text.includes(hook.id))).toHaveLength(1);
});

test('a receiver down for a while, then back: every event is delivered, each delivery id answered 2xx once', async () => {
  const hook = await hookOn('/outage', ['ticket.created'], () => 200);
  await rig.receiver.down();
  const events = [];
  for (let i = 0; i < 10; i++)
    events.push(await emitEvent(platform.db, { workspaceId: hook.ws.id, event: 'ticket.created', data: { id: `t-${i}` } }));
  // Every delivery has failed at least once against the closed port.
  await eventually(() => allAttempted(hook.id, 10, 2), 20_000, 'two failed attempts each');
  await rig.receiver.up();
  const rows = await settled(hook.id, 10);
  expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
  expect(rows.map((r) => r.event_id).sort()).toEqual(events.map((e) => e.id).sort());
  for (const row of rows) {
    const got = requestsOf(rig.receiver, row.event_id);
    expect(got).toHaveLength(1);
    expect(Number(got[0]!.headers['x-svc-attempt'])).toBeGreaterThanOrEqual(2);
  }
  const first = rows[0]!;
  expect((await platform.db.query('select error from webhook_deliveries where id = $1', [first.id])).rows[0].error).toBeNull();
});

test('resend repeats the same delivery id, replay sends a new one; 409 while held, 404 for another webhook', async () => {
  const hook = await hookOn('/again', ['company.created'], () => 200);
  const other = await hookOn('/other', ['company.created'], () => 200);
  const emitted = await emitEvent(platform.db, { workspaceId: hook.ws.id, event: 'company.created' });
  const [row] = await settled(hook.id, 1);

  const resent = await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${row.id}/resend`);
  expect(resent.status).toBe(202);
  expect(resent.body).toMatchObject({ id: row.id, status: 'pending', attempt: 0 });
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, row.event_id).length === 2);
  const [firstSend, secondSend] = requestsOf(rig.receiver, row.event_id);
  expect(secondSend!.body.equals(firstSend!.body)).toBe(true);
  expect(secondSend!.headers['x-svc-attempt']).toBe('1');

  const replayed = await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${row.id}/replay`);
  expect(replayed.status).toBe(202);
  expect(replayed.body).toMatchObject({ kind: 'replay', replay_of: row.id, status: 'pending' });
  expect(replayed.body.id).not.toBe(row.id);
  expect(replayed.body.event_id).toMatch(/^evt_/);
  expect(replayed.body.event_id).not.toBe(emitted.id);
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, replayed.body.event_id).length === 1);
  // The same envelope under the new id, naming the original event; signed over those bytes.
  const replaySent = requestsOf(rig.receiver, replayed.body.event_id)[0]!;
  expect(JSON.parse(replaySent.body.toString())).toEqual({ ...emitted, id: replayed.body.event_id, replay_of: emitted.id });
  expect(replaySent.headers['x-svc-signature']).toBe(`sha256=${createHmac('sha256', hook.secret).update(replaySent.body).digest('hex')}`);
  // A replay of the replay keeps naming the original event.
  const again = await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${replayed.body.id}/replay`);
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, again.body.event_id).length === 1);
  expect(JSON.parse(requestsOf(rig.receiver, again.body.event_id)[0]!.body.toString())).toMatchObject({
    id: again.body.event_id,
    replay_of: emitted.id,
  });

  expectSvcError(await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${other.id}/deliveries/${row.id}/resend`), 404, 'not_found');
  expectSvcError(await svc(platform, other.key, 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${row.id}/replay`), 404, 'not_found');
  await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/pause`);
  await emitEvent(platform.db, { workspaceId: hook.ws.id, event: 'company.created' });
  const heldRow = await eventually(async () => (await deliveryRows(hook.id)).find((r) => r.status === 'held'));
  const before = await count(platform.db, 'select count(*) as n from webhook_deliveries where webhook_id = $1', [hook.id]);
  expectSvcError(await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${heldRow.id}/resend`), 409, 'conflict');
  expect(await count(platform.db, 'select count(*) as n from webhook_deliveries where webhook_id = $1', [hook.id])).toBe(before);
});

test("a receiver that de-duplicates on the body's id skips a Resend and processes a Replay; X-SVC-Delivery is that id", async () => {
  const hook = await hookOn('/dedupe', ['deal.won'], () => 200);
  const emitted = await emitEvent(platform.db, { workspaceId: hook.ws.id, event: 'deal.won' });
  const [row] = await settled(hook.id, 1);
  expect((await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${row.id}/resend`)).status).toBe(202);
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, emitted.id).length === 2);
  const replayed = await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${row.id}/replay`);
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, replayed.body.event_id).length === 1);
  expect(deduplicatedByBodyId(rig.receiver, '/dedupe')).toEqual({ processed: [emitted.id, replayed.body.event_id], skipped: [emitted.id] });
  for (const r of requestsMatching(rig.receiver.received, { path: '/dedupe', event: 'deal.won' })) {
    expect(r.headers['x-svc-delivery']).toBe(JSON.parse(r.body.toString()).id);
  }
});

test('one event reaches every subscribed webhook of its workspace, each with its own log entry and the event id', async () => {
  const a = await hookOn('/fan-a', ['contact.created'], () => 200);
  const ws = a.ws;
  const bRes = await svc(platform, a.key, 'POST', '/api/v1/webhooks', {
    name: 'b',
    url: `${rig.receiver.origin}/fan-b`,
    events: ['contact.created', 'contact.updated'],
  });
  const cRes = await svc(platform, a.key, 'POST', '/api/v1/webhooks', {
    name: 'c',
    url: `${rig.receiver.origin}/fan-c`,
    events: ['contact.updated'],
  });
  const emitted = await emitEvent(platform.db, { workspaceId: ws.id, event: 'contact.created' });
  const [ra] = await settled(a.id, 1);
  const [rb] = await settled(bRes.body.id, 1);
  expect(ra.id).not.toBe(rb.id);
  expect([ra.event_id, rb.event_id]).toEqual([emitted.id, emitted.id]);
  const paths = requestsOf(rig.receiver, emitted.id)
    .map((r) => r.path)
    .sort();
  expect(paths).toEqual(['/fan-a', '/fan-b']);
  expect(await deliveryRows(cRes.body.id)).toEqual([]);
});

test('the log keeps the 200 most recent deliveries of a webhook', async () => {
  const hook = await hookOn('/busy', ['leave.requested'], () => 200);
  const values = Array.from(
    { length: 210 },
    (_, i) =>
      `('svc.event', '${JSON.stringify({ environment: 'live', envelope: { id: `evt_busy${i}`, event: 'leave.requested', occurred_at: new Date().toISOString(), workspace_id: hook.ws.id, api_version: 'v1', data: { i } } })}'::jsonb)`,
  );
  await platform.db.query(`insert into outbox (topic, payload) values ${values.join(', ')}`);
  await eventually(
    async () =>
      holds(
        (await count(
          platform.db,
          "select count(*) as n from webhook_deliveries where webhook_id = $1 and kind = 'event' and status = 'succeeded'",
          [hook.id],
        )) >= 190,
      ),
    30_000,
  );
  await eventually(() => logSettledAt(hook.id, 200), 30_000, 'a log of 200');
  const walked = await walkPages(
    (cursor) => svc(platform, hook.key, 'GET', `/api/v1/webhooks/${hook.id}/deliveries?limit=100${cursorParam(cursor)}`),
    svcNextCursor,
  );
  const pages: string[] = walked.flatMap((res) => res.body.items.map((d: { event_id: string }) => d.event_id));
  expect(pages).toHaveLength(200);
  // The ping and the oldest events went first.
  expect(pages).not.toContain('evt_busy0');
  expect(pages.filter((id) => id.startsWith('evt_busy'))).toHaveLength(200);
});

test('an Unverified webhook still gets deliveries; the first 2xx makes it Active', async () => {
  const ws = await svcWorkspace(platform);
  const key = (await ws.key(['webhook.*'])).key;
  routes.set('/late', () => 200);
  rig.receiver.respond(failingFirstOn('/late', responderOf()));
  const res = await svc(platform, key, 'POST', '/api/v1/webhooks', {
    name: 'late',
    url: `${rig.receiver.origin}/late`,
    events: ['employee.created'],
  });
  expect(res.body.status).toBe('Unverified');
  await emitEvent(platform.db, { workspaceId: ws.id, event: 'employee.created' });
  await settled(res.body.id, 1);
  expect((await svc(platform, key, 'GET', `/api/v1/webhooks/${res.body.id}`)).body.status).toBe('Active');
  expect(
    await count(platform.db, "select count(*) as n from outbox where topic = 'webhook.verified' and payload->>'webhookId' = $1", [
      res.body.id,
    ]),
  ).toBe(1);
});

test('lead.created from POST /api/v1/leads is written once and reaches a webhook', async () => {
  const hook = await hookOn('/leads', ['lead.created'], () => 200);
  const crmKey = (await hook.ws.key(['crm.*'])).key;
  const lead = await svc(platform, crmKey, 'POST', '/api/v1/leads', { name: 'Ada Lovelace', email: 'ada@example.com' });
  expect(lead.status).toBe(201);
  const emitted = await count(
    platform.db,
    "select count(*) as n from outbox where topic = 'svc.event' and payload->'envelope'->>'event' = 'lead.created' and payload->'envelope'->'data'->>'id' = $1",
    [lead.body.id],
  );
  expect(emitted).toBe(1);
  const [row] = await settled(hook.id, 1);
  const sent = JSON.parse(requestsOf(rig.receiver, row.event_id)[0]!.body.toString());
  expect(sent).toMatchObject({
    event: 'lead.created',
    workspace_id: hook.ws.id,
    api_version: 'v1',
    data: { id: lead.body.id, name: 'Ada Lovelace' },
  });
  expect(sent.id).toMatch(/^evt_/);
  expect(sent.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test("the served documents declare what the wire carries: real deliveries, a retry, a replay and the ping match both listeners' webhooks", async () => {
  const hook = await hookOn('/contract', ['lead.created', 'deal.created'], () => 200);
  const crmKey = (await hook.ws.key(['crm.*'])).key;
  expect((await svc(platform, crmKey, 'POST', '/api/v1/leads', { name: 'Ada Lovelace', email: 'ada@example.com' })).status).toBe(201);
  const lead = await eventually(async () => (await deliveryRows(hook.id)).find((r) => r.status === 'succeeded'));
  // The deal's first attempt fails, so its retry (X-SVC-Attempt 2) is checked too.
  rig.receiver.respond(failingFirstAttemptOf('deal.created'));
  expect(
    (await svc(platform, crmKey, 'POST', '/api/v1/deals', { name: 'Analytical engine', amount: 125000, currency: 'GBP' })).status,
  ).toBe(201);
  const replayed = await svc(platform, hook.key, 'POST', `/api/v1/webhooks/${hook.id}/deliveries/${lead.id}/replay`);
  expect(replayed.status).toBe(202);
  await settled(hook.id, 3, ['succeeded']);

  const received = rig.receiver.received.filter((r) => r.path === '/contract');
  const attempts = received.map((r) => `${r.headers['x-svc-event']}#${r.headers['x-svc-attempt']}`).sort();
  expect(attempts).toEqual(['deal.created#1', 'deal.created#2', 'lead.created#1', 'lead.created#1', 'ping#1']);
  const replay = received.find((r) => r.headers['x-svc-delivery'] === replayed.body.event_id)!;
  expect(JSON.parse(replay.body.toString())).toMatchObject({ id: replayed.body.event_id, replay_of: lead.event_id });
  const deal = received.find((r) => r.headers['x-svc-event'] === 'deal.created')!;
  expect(JSON.parse(deal.body.toString()).data).toMatchObject({ amount: 125000 });

  for (const url of [platform.workspaceUrl, platform.partnerUrl]) {
    const contract = await deliveryContract(url);
    expect(contract.events).toHaveLength(34);
    for (const r of received)
      expect({ delivery: `${r.headers['x-svc-event']}#${r.headers['x-svc-attempt']}`, problems: contract.problems(r) }).toEqual({
        delivery: expect.any(String),
        problems: [],
      });
    // What the document forbids is told apart: a seventh attempt, an amount in major units, an unknown field.
    expect(contract.problems({ ...deal, headers: { ...deal.headers, 'x-svc-attempt': '7' } })).toEqual([
      expect.stringMatching(/^X-SVC-Attempt "7"/),
    ]);
    const body = JSON.parse(deal.body.toString());
    expect(
      contract.problems({ ...deal, body: Buffer.from(JSON.stringify({ ...body, data: { ...body.data, amount: '1250.00' } })) }),
    ).not.toEqual([]);
    expect(contract.problems({ ...deal, body: Buffer.from(JSON.stringify({ ...body, extra: true })) })).not.toEqual([]);
  }
});
