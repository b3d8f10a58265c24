// The workspace event catalogue from real actions: every event is written to the outbox (topic svc.event) by the
// operation that causes it, in its transaction, exactly once, with the seed's envelope; an action that changes
// nothing writes nothing, and a refused one neither. ticket.sla_breached is in events-sla.test.ts.
import { keyHeaders } from '../../helpers/partner-expect.js';
import { svcHeaders } from '../../helpers/workspace-expect.js';
import { dealDataKeys, during, expectEnvelope, leadDataKeys, names, only, type OutboxEvent } from '../../helpers/workspace-events.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { partnerKey } from '../../support/partner.js';
import { newId } from '../../../src/platform/ids.js';
import { workspaceEvents } from '../../../src/core/events/catalogue.js';

let platform: TestPlatform;
let ws: SvcWorkspace;
let key: string;
let seller: TestAccount;
const seen = new Set<string>();
const creations = new Set([
  'lead.created',
  'deal.created',
  'contact.created',
  'company.created',
  'message.received',
  'message.sent',
  'ticket.created',
  'ticket.commented',
  'approval.requested',
  'employee.created',
  'leave.requested',
]);

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner', 'workspace'] });
  ws = await svcWorkspace(platform);
  key = (await ws.key(['read-write'])).key;
  seller = await ws.member('staff');
});
afterAll(async () => {
  await platform.stop();
});

const svc = (method: string, path: string, body?: unknown, k = key) =>
  call(platform.workspaceUrl, method, `/api/v1${path}`, { headers: svcHeaders(k), body });

/** The action's response and events; every event seen is checked against the envelope and recorded. */
async function act(method: string, path: string, body?: unknown, k = key, workspaceId = ws.id) {
  const { result, events } = await during(platform.db, workspaceId, () => svc(method, path, body, k));
  for (const e of events) {
    // Events that make a record carry no changes; every other one says what it changed.
    const changes = creations.has(e.envelope.event) ? undefined : expect.any(Object);
    expectEnvelope(e, { event: e.envelope.event, workspaceId, environment: e.environment, changes });
    seen.add(e.envelope.event);
  }
  return { res: result, events };
}

function lead(e: OutboxEvent) {
  expect(Object.keys(e.envelope.data).sort()).toEqual(leadDataKeys);
  return e.envelope.data;
}

/** An Idempotency-Key for a write, none for a read. */
const idempotencyKeyFor = (method: string) => (method === 'GET' ? undefined : newId());

describe('CRM', () => {
  test('lead.created, lead.updated on a status, lead.assigned on an owner; nothing on a repeat or an empty body', async () => {
    const created = await act('POST', '/leads', {
      name: 'Ada',
      email: 'ada@example.com',
      phone: '+44 1',
      source: 'fair',
      note: 'private',
      custom_fields: { tier: 'gold' },
    });
    expect(created.res.status).toBe(201);
    expect(names(created.events)).toEqual(['lead.created']);
    const id = created.res.body.id;
    expect(lead(created.events[0]!)).toEqual({
      id,
      name: 'Ada',
      phone: '+44 1',
      email: 'ada@example.com',
      source: 'fair',
      status: 'new',
      owner_id: null,
      created_at: created.res.body.created_at,
      custom_fields: { tier: 'gold' },
    });
    expect(created.events[0]!.envelope.changes).toBeUndefined();

    const updated = await act('PATCH', `/leads/${id}`, { status: 'contacted' });
    expect(names(updated.events)).toEqual(['lead.updated']);
    expectEnvelope(updated.events[0]!, {
      event: 'lead.updated',
      workspaceId: ws.id,
      changes: { status: { from: 'new', to: 'contacted' } },
    });
    expect(lead(updated.events[0]!).status).toBe('contacted');

    expect(names((await act('PATCH', `/leads/${id}`, { status: 'contacted' })).events)).toEqual([]);
    expect(names((await act('PATCH', `/leads/${id}`, {})).events)).toEqual([]);

    const assigned = await act('PATCH', `/leads/${id}`, { owner_id: seller.id });
    expect(names(assigned.events)).toEqual(['lead.assigned']);
    expectEnvelope(assigned.events[0]!, {
      event: 'lead.assigned',
      workspaceId: ws.id,
      changes: { owner_id: { from: null, to: seller.id } },
    });
    expect(lead(assigned.events[0]!).owner_id).toBe(seller.id);
    expect(names((await act('PATCH', `/leads/${id}`, { owner_id: seller.id })).events)).toEqual([]);

    const both = await act('PATCH', `/leads/${id}`, { status: 'qualified', owner_id: null });
    expect(names(both.events)).toEqual(['lead.updated', 'lead.assigned']);
    expect(only(both.events, 'lead.assigned').envelope.changes).toEqual({ owner_id: { from: seller.id, to: null } });

    // Refused writes write nothing.
    expect((await act('PATCH', `/leads/${id}`, { owner_id: newId() })).events).toEqual([]);
    expect((await act('PATCH', `/leads/${id}`, { status: 'converted' })).events).toEqual([]);
  });

  test('lead.converted with contact.created and deal.created, in one transaction; a second conversion is 409 and writes nothing', async () => {
    const id = (await svc('POST', '/leads', { name: 'Grace', email: 'grace@example.com', phone: '+1 2', source: 'referral' })).body.id;
    await svc('PATCH', `/leads/${id}`, { status: 'qualified', owner_id: seller.id });
    const converted = await act('POST', `/leads/${id}/convert`, { amount: 250000, currency: 'EUR', stage: 'proposal' });
    expect(converted.res.status).toBe(200);
    const { contact, deal } = converted.res.body;
    expect(names(converted.events)).toEqual(['contact.created', 'deal.created', 'lead.converted']);
    expectEnvelope(only(converted.events, 'lead.converted'), {
      event: 'lead.converted',
      workspaceId: ws.id,
      changes: {
        status: { from: 'qualified', to: 'converted' },
        contact_id: { from: null, to: contact.id },
        deal_id: { from: null, to: deal.id },
      },
    });
    expect(lead(only(converted.events, 'lead.converted'))).toMatchObject({ id, status: 'converted', owner_id: seller.id });
    expect(only(converted.events, 'deal.created').envelope.data).toEqual({
      id: deal.id,
      name: 'Grace',
      stage: 'proposal',
      amount: 250000,
      owner_id: seller.id,
    });
    expect(only(converted.events, 'contact.created').envelope.data).toMatchObject({
      id: contact.id,
      name: 'Grace',
      email: 'grace@example.com',
      phone: '+1 2',
      source: 'referral',
    });

    const again = await act('POST', `/leads/${id}/convert`, {});
    expect(again.res.status).toBe(409);
    expect(again.events).toEqual([]);
  });

  test('the partner API emits the same lead events; test keys mark them test; dev keys have none', async () => {
    const live = (await partnerKey(platform, ws.id, ['crm_leads:*', 'crm_deals:*'], { name: 'p', environment: 'live' })).key;
    const partner = (method: string, path: string, k: string, body?: unknown) =>
      during(platform.db, ws.id, () =>
        call(platform.partnerUrl, method, `/api/v1/partner/crm${path}`, {
          headers: keyHeaders(k, idempotencyKeyFor(method)),
          body,
        }),
      );
    const created = await partner('POST', '/leads', live, { full_name: 'Alan', email: 'alan@example.com', company_name: 'GC&CS' });
    expect(created.result.status).toBe(201);
    expect(names(created.events)).toEqual(['lead.created']);
    expectEnvelope(created.events[0]!, { event: 'lead.created', workspaceId: ws.id });
    expect(lead(created.events[0]!)).toEqual({
      id: created.result.body.id,
      name: 'Alan',
      phone: null,
      email: 'alan@example.com',
      source: null,
      status: 'new',
      owner_id: null,
      created_at: created.result.body.created_at,
      custom_fields: {},
    });
    const renamed = await partner('PATCH', `/leads/${created.result.body.id}`, live, { full_name: 'Alan Turing' });
    expect(names(renamed.events)).toEqual(['lead.updated']);
    expectEnvelope(renamed.events[0]!, {
      event: 'lead.updated',
      workspaceId: ws.id,
      changes: { name: { from: 'Alan', to: 'Alan Turing' } },
    });
    expect(names((await partner('PATCH', `/leads/${created.result.body.id}`, live, { full_name: 'Alan Turing' })).events)).toEqual([]);

    const won = await partner('POST', '/deals', live, { title: 'Bombe', stage: 'proposal', amount: 1000 });
    expect(names(won.events)).toEqual(['deal.created']);
    const closed = await partner('PATCH', `/deals/${won.result.body.id}`, live, { status: 'won' });
    expect(names(closed.events)).toEqual(['deal.won']);
    expect(closed.events[0]!.envelope.changes).toEqual({ status: { from: 'open', to: 'won' } });

    const test = (await partnerKey(platform, ws.id, ['crm_leads:*'], { name: 'p', environment: 'test' })).key;
    const inTest = await partner('POST', '/leads', test, { full_name: 'Test lead' });
    expect(inTest.events).toHaveLength(1);
    expect(inTest.events[0]!.environment).toBe('test');
    const dev = (await partnerKey(platform, ws.id, ['crm_leads:*'], { name: 'p', environment: 'dev' })).key;
    const inDev = await partner('POST', '/leads', dev, { full_name: 'Dev lead' });
    expect(inDev.result.status).toBe(201);
    expect(inDev.events).toEqual([]);
  });

  test('deal.created, deal.updated, deal.stage_changed with {stage: {from, to}}, deal.won and deal.lost', async () => {
    const created = await act('POST', '/deals', { name: 'Engine', amount: 5000, currency: 'GBP', owner_id: seller.id });
    const id = created.res.body.id;
    expect(names(created.events)).toEqual(['deal.created']);
    expect(Object.keys(created.events[0]!.envelope.data).sort()).toEqual(dealDataKeys);
    expect(created.events[0]!.envelope.data).toEqual({ id, name: 'Engine', stage: 'new', amount: 5000, owner_id: seller.id });

    const updated = await act('PATCH', `/deals/${id}`, { amount: 7500 });
    expect(names(updated.events)).toEqual(['deal.updated']);
    expect(updated.events[0]!.envelope.changes).toEqual({ amount: { from: 5000, to: 7500 } });
    expect(updated.events[0]!.envelope.data.amount).toBe(7500);

    const staged = await act('PATCH', `/deals/${id}`, { stage: 'proposal' });
    expect(names(staged.events)).toEqual(['deal.stage_changed']);
    expectEnvelope(staged.events[0]!, {
      event: 'deal.stage_changed',
      workspaceId: ws.id,
      changes: { stage: { from: 'new', to: 'proposal' } },
      data: { id, name: 'Engine', stage: 'proposal', amount: 7500, owner_id: seller.id },
    });
    expect(names((await act('PATCH', `/deals/${id}`, { stage: 'proposal' })).events)).toEqual([]);

    const won = await act('PATCH', `/deals/${id}`, { stage: 'won' });
    expect(won.res.body.status).toBe('won');
    expect(names(won.events)).toEqual(['deal.stage_changed', 'deal.won']);
    expect(only(won.events, 'deal.won').envelope.changes).toEqual({ status: { from: 'open', to: 'won' } });

    const reopened = await act('PATCH', `/deals/${id}`, { stage: 'negotiation' });
    expect(names(reopened.events)).toEqual(['deal.stage_changed', 'deal.updated']);
    expect(only(reopened.events, 'deal.updated').envelope.changes).toEqual({ status: { from: 'won', to: 'open' } });

    const lost = await act('PATCH', `/deals/${id}`, { stage: 'lost', name: 'Engine 2' });
    expect(names(lost.events)).toEqual(['deal.stage_changed', 'deal.lost', 'deal.updated']);
    expect(only(lost.events, 'deal.lost').envelope.changes).toEqual({ status: { from: 'open', to: 'lost' } });
    expect(only(lost.events, 'deal.updated').envelope.changes).toEqual({ name: { from: 'Engine', to: 'Engine 2' } });
  });

  test('contact.created, contact.updated with its changes, company.created; company changes emit nothing', async () => {
    const company = await act('POST', '/companies', { name: 'Acme', domain: 'acme.example' });
    expect(names(company.events)).toEqual(['company.created']);
    expect(company.events[0]!.envelope.data).toEqual(company.res.body);
    expect(names((await act('PATCH', `/companies/${company.res.body.id}`, { industry: 'rockets' })).events)).toEqual([]);

    const contact = await act('POST', '/contacts', { name: 'Wile', company_id: company.res.body.id });
    expect(names(contact.events)).toEqual(['contact.created']);
    expect(contact.events[0]!.envelope.data).toEqual(contact.res.body);
    const updated = await act('PATCH', `/contacts/${contact.res.body.id}`, { job_title: 'Genius', status: 'inactive' });
    expect(names(updated.events)).toEqual(['contact.updated']);
    expect(updated.events[0]!.envelope.changes).toEqual({
      status: { from: 'active', to: 'inactive' },
      job_title: { from: null, to: 'Genius' },
    });
    expect(updated.events[0]!.envelope.data).toEqual(updated.res.body);
    expect(names((await act('PATCH', `/contacts/${contact.res.body.id}`, { job_title: 'Genius' })).events)).toEqual([]);
  });

  test('quotation.sent and quotation.accepted; repeats and refused moves write nothing', async () => {
    const q = await act('POST', '/quotations', { currency: 'EUR', amount_total: 120000 });
    expect(q.events).toEqual([]);
    const id = q.res.body.id;
    expect((await act('POST', `/quotations/${id}/accept`)).res.status).toBe(409);
    const sent = await act('POST', `/quotations/${id}/send`);
    expect(names(sent.events)).toEqual(['quotation.sent']);
    expect(sent.events[0]!.envelope.changes).toEqual({
      status: { from: 'draft', to: 'sent' },
      sent_at: { from: null, to: sent.res.body.sent_at },
    });
    expect(sent.events[0]!.envelope.data).toEqual(sent.res.body);
    expect((await act('POST', `/quotations/${id}/send`)).events).toEqual([]);
    const accepted = await act('POST', `/quotations/${id}/accept`);
    expect(names(accepted.events)).toEqual(['quotation.accepted']);
    expect(accepted.events[0]!.envelope.changes).toMatchObject({ status: { from: 'sent', to: 'accepted' } });
    expect((await act('POST', `/quotations/${id}/accept`)).events).toEqual([]);
    const declined = await act('POST', `/quotations/${id}/decline`);
    expect(declined.res.status).toBe(409);
    expect(declined.events).toEqual([]);
  });
});

describe('Inbox', () => {
  test('message.received, message.sent, conversation.assigned, conversation.closed, conversation.reopened', async () => {
    const conversation = (await svc('POST', '/conversations', { channel: 'whatsapp', customer_handle: '+49 30 1234' })).body;
    const inbound = await act('POST', '/messages', { conversation_id: conversation.id, direction: 'inbound', text: 'Hello?' });
    expect(names(inbound.events)).toEqual(['message.received']);
    expect(inbound.events[0]!.envelope.data).toEqual(inbound.res.body);
    const outbound = await act('POST', '/messages', { conversation_id: conversation.id, text: 'Hi!', author_id: seller.id });
    expect(names(outbound.events)).toEqual(['message.sent']);
    expect(outbound.events[0]!.envelope.data).toMatchObject({ direction: 'outbound', author_id: seller.id });

    const assigned = await act('POST', `/conversations/${conversation.id}/assign`, { assignee_id: seller.id });
    expect(names(assigned.events)).toEqual(['conversation.assigned']);
    expect(assigned.events[0]!.envelope.changes).toEqual({ assignee_id: { from: null, to: seller.id } });
    expect((await act('POST', `/conversations/${conversation.id}/assign`, { assignee_id: seller.id })).events).toEqual([]);

    const closed = await act('POST', `/conversations/${conversation.id}/close`);
    expect(names(closed.events)).toEqual(['conversation.closed']);
    expect(closed.events[0]!.envelope.changes).toEqual({
      status: { from: 'open', to: 'closed' },
      closed_at: { from: null, to: closed.res.body.closed_at },
    });
    expect((await act('POST', `/conversations/${conversation.id}/close`)).events).toEqual([]);
    const refused = await act('POST', '/messages', { conversation_id: conversation.id, text: 'Still there?' });
    expect(refused.res.status).toBe(409);
    expect(refused.events).toEqual([]);

    const reopened = await act('POST', `/conversations/${conversation.id}/reopen`);
    expect(names(reopened.events)).toEqual(['conversation.reopened']);
    expect((await act('POST', `/conversations/${conversation.id}/reopen`)).events).toEqual([]);
    await svc('POST', `/conversations/${conversation.id}/close`);
    // The customer writes again: the conversation reopens with the message.
    const revived = await act('POST', '/messages', { conversation_id: conversation.id, direction: 'inbound', text: 'One more thing' });
    expect(names(revived.events)).toEqual(['conversation.reopened', 'message.received']);
  });
});

describe('Tickets', () => {
  test('ticket.created, ticket.assigned, ticket.status_changed, ticket.commented; refused moves write nothing', async () => {
    const created = await act('POST', '/tickets', { subject: 'Printer on fire', priority: 'high' });
    expect(names(created.events)).toEqual(['ticket.created']);
    expect(created.events[0]!.envelope.data).toEqual(created.res.body);
    const id = created.res.body.id;

    const assigned = await act('PATCH', `/tickets/${id}`, { assignee_id: seller.id });
    expect(names(assigned.events)).toEqual(['ticket.assigned']);
    expect(assigned.events[0]!.envelope.changes).toEqual({ assignee_id: { from: null, to: seller.id } });

    const pending = await act('PATCH', `/tickets/${id}`, { status: 'pending' });
    expect(names(pending.events)).toEqual(['ticket.status_changed']);
    expect(pending.events[0]!.envelope.changes).toEqual({ status: { from: 'open', to: 'pending' } });
    expect((await act('PATCH', `/tickets/${id}`, { status: 'pending', subject: 'Printer on fire' })).events).toEqual([]);
    expect((await act('PATCH', `/tickets/${id}`, { subject: 'Printer still on fire' })).events).toEqual([]);

    const commented = await act('POST', `/tickets/${id}/comments`, {
      body: 'Extinguisher on its way',
      author_id: seller.id,
      internal: true,
    });
    expect(names(commented.events)).toEqual(['ticket.commented']);
    expect(commented.events[0]!.envelope.data).toEqual(commented.res.body);

    for (const status of ['resolved', 'closed'])
      expect(names((await act('PATCH', `/tickets/${id}`, { status })).events)).toEqual(['ticket.status_changed']);
    const reopen = await act('PATCH', `/tickets/${id}`, { status: 'open' });
    expect(reopen.res.status).toBe(409);
    expect(reopen.events).toEqual([]);
    expect((await act('POST', `/tickets/${id}/comments`, { body: 'late' })).events).toEqual([]);
  });
});

describe('Approvals', () => {
  test('approval.requested, approval.step_completed per step, approval.approved when all are', async () => {
    const [first, second] = [await ws.member('manager'), await ws.member('admin')];
    const requested = await act('POST', '/approvals', { title: 'Laptop', requested_by: seller.id, approver_ids: [first.id, second.id] });
    expect(names(requested.events)).toEqual(['approval.requested']);
    expect(requested.events[0]!.envelope.data).toEqual(requested.res.body);
    const id = requested.res.body.id;

    const wrong = await act('POST', `/approvals/${id}/decisions`, { approver_id: second.id, decision: 'approve' });
    expect(wrong.res.status).toBe(403);
    expect(wrong.events).toEqual([]);

    const step1 = await act('POST', `/approvals/${id}/decisions`, { approver_id: first.id, decision: 'approve' });
    expect(names(step1.events)).toEqual(['approval.step_completed']);
    expect(step1.events[0]!.envelope.changes).toEqual({ current_step: { from: 1, to: 2 } });
    expect(step1.events[0]!.envelope.data.steps.map((s: { status: string }) => s.status)).toEqual(['approved', 'pending']);

    const step2 = await act('POST', `/approvals/${id}/decisions`, { approver_id: second.id, decision: 'approve', comment: 'ok' });
    expect(names(step2.events)).toEqual(['approval.step_completed', 'approval.approved']);
    expect(only(step2.events, 'approval.approved').envelope.changes).toEqual({ status: { from: 'pending', to: 'approved' } });
    expect(only(step2.events, 'approval.approved').envelope.data).toMatchObject({ status: 'approved', current_step: null });
    const late = await act('POST', `/approvals/${id}/decisions`, { approver_id: second.id, decision: 'reject' });
    expect(late.res.status).toBe(409);
    expect(late.events).toEqual([]);
  });

  test('approval.rejected; approval.cancelled by the creator only', async () => {
    const approver = await ws.member('manager');
    const rejectedOne = (await svc('POST', '/approvals', { title: 'Trip', requested_by: seller.id, approver_ids: [approver.id] })).body;
    const rejected = await act('POST', `/approvals/${rejectedOne.id}/decisions`, { approver_id: approver.id, decision: 'reject' });
    expect(names(rejected.events)).toEqual(['approval.rejected']);
    expect(rejected.events[0]!.envelope.changes).toEqual({ status: { from: 'pending', to: 'rejected' } });

    const cancelledOne = (await svc('POST', '/approvals', { title: 'Desk', requested_by: seller.id, approver_ids: [approver.id] })).body;
    const byOther = await act('POST', `/approvals/${cancelledOne.id}/cancel`, { requested_by: approver.id });
    expect(byOther.res.status).toBe(403);
    expect(byOther.events).toEqual([]);
    const cancelled = await act('POST', `/approvals/${cancelledOne.id}/cancel`, { requested_by: seller.id });
    expect(names(cancelled.events)).toEqual(['approval.cancelled']);
    expect(cancelled.events[0]!.envelope.changes).toEqual({
      status: { from: 'pending', to: 'cancelled' },
      current_step: { from: 1, to: null },
    });
    expect((await act('POST', `/approvals/${cancelledOne.id}/cancel`, { requested_by: seller.id })).events).toEqual([]);
  });
});

describe('HR', () => {
  test('employee.created, employee.terminated, leave.requested, leave.approved; repeats write nothing', async () => {
    const created = await act('POST', '/employees', {
      name: 'Hedy',
      department: 'Engineering',
      account_id: seller.id,
      hire_date: '2024-01-15',
    });
    expect(names(created.events)).toEqual(['employee.created']);
    expect(created.events[0]!.envelope.data).toEqual(created.res.body);
    const id = created.res.body.id;

    const requested = await act('POST', '/leaves', { employee_id: id, type: 'annual', start_date: '2026-12-21', end_date: '2026-12-24' });
    expect(names(requested.events)).toEqual(['leave.requested']);
    expect(requested.events[0]!.envelope.data).toMatchObject({ days: 4, status: 'requested' });
    const approved = await act('POST', `/leaves/${requested.res.body.id}/approve`, { decided_by: ws.owner.id });
    expect(names(approved.events)).toEqual(['leave.approved']);
    expect(approved.events[0]!.envelope.changes).toEqual({
      status: { from: 'requested', to: 'approved' },
      decided_by: { from: null, to: ws.owner.id },
      decided_at: { from: null, to: approved.res.body.decided_at },
    });
    expect((await act('POST', `/leaves/${requested.res.body.id}/approve`, {})).events).toEqual([]);
    const rejectedLeave = (
      await svc('POST', '/leaves', { employee_id: id, type: 'sick', start_date: '2026-11-02', end_date: '2026-11-02' })
    ).body;
    expect((await act('POST', `/leaves/${rejectedLeave.id}/reject`, {})).events).toEqual([]);

    const terminated = await act('POST', `/employees/${id}/terminate`, { terminated_on: '2026-12-31', reason: 'moved on' });
    expect(names(terminated.events)).toEqual(['employee.terminated']);
    expect(terminated.events[0]!.envelope.changes).toEqual({
      status: { from: 'active', to: 'terminated' },
      terminated_on: { from: null, to: '2026-12-31' },
      termination_reason: { from: null, to: 'moved on' },
    });
    expect((await act('POST', `/employees/${id}/terminate`, {})).events).toEqual([]);
  });
});

test('an event commits in the transaction of its change, through either API', async () => {
  const xmin = async (table: string, where: string, id: string | number) =>
    (await platform.db.query<{ x: string }>(`select xmin::text as x from ${table} where ${where} = $1`, [id])).rows[0]!.x;
  const created = await act('POST', '/leads', { name: 'Same transaction' });
  expect(await xmin('outbox', 'id', created.events[0]!.id)).toBe(await xmin('crm_records', 'id', created.res.body.id));
  const live = (await partnerKey(platform, ws.id, ['crm_contacts:*'], { name: 'p', environment: 'live' })).key;
  const viaPartner = await during(platform.db, ws.id, () =>
    call(platform.partnerUrl, 'POST', '/api/v1/partner/crm/contacts', {
      headers: keyHeaders(live, newId()),
      body: { full_name: 'Partner contact' },
    }),
  );
  expect(names(viaPartner.events)).toEqual(['contact.created']);
  // The Idempotency-Key record, the contact and its event: one transaction.
  expect(await xmin('outbox', 'id', viaPartner.events[0]!.id)).toBe(await xmin('crm_records', 'id', viaPartner.result.body.id));
});

test("every event of the catalogue but the SLA timer's came from an action above", () => {
  expect(workspaceEvents).toHaveLength(33);
  expect([...seen].sort()).toEqual(workspaceEvents.filter((e) => e !== 'ticket.sla_breached').sort());
});
