// The ticket (/tickets, /tickets/{id}/comments) and approval (/approvals, /approvals/{id}/decisions) families over
// the real listener: the ticket lifecycle and SLA deadline, comments, multi-step approvals decided by each step's
// approver and cancelled by the requester, filters and paging, scopes, and bad input with nothing changed.
import { count } from '../../helpers/expect.js';
import { expectSvcError, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { newId } from '../../../src/platform/ids.js';
import { alternate } from '../../helpers/data.js';

let platform: TestPlatform;
let ws: SvcWorkspace;
let key: string;
let agent: TestAccount;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['workspace'] });
  ws = await svcWorkspace(platform);
  key = (await ws.key(['ticket.*', 'approval.*', 'crm.*'])).key;
  agent = await ws.member('staff');
});
afterAll(async () => {
  await platform.stop();
});

const svc = (method: string, path: string, body?: unknown, k = key) =>
  call(platform.workspaceUrl, method, `/api/v1${path}`, { headers: svcHeaders(k), body });
const rows = (sql: string) => count(platform.db, sql, [ws.id]);
const snapshot = async (table: string, id: string) => (await platform.db.query(`select * from ${table} where id = $1`, [id])).rows[0];

async function all(path: string, k = key): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: Awaited<ReturnType<typeof svc>> = await svc(
      'GET',
      `${path}${sep}limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      undefined,
      k,
    );
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

describe('tickets', () => {
  test('open with an SLA by priority; the lifecycle allows only its moves; filters', async () => {
    const contact = (await svc('POST', '/contacts', { name: 'Requester' })).body;
    const res = await svc('POST', '/tickets', { subject: 'Cannot log in', description: 'since Monday', contact_id: contact.id });
    expect(res.status).toBe(201);
    const t = res.body;
    expect(t).toEqual({
      id: expect.any(String),
      subject: 'Cannot log in',
      description: 'since Monday',
      priority: 'normal',
      status: 'open',
      assignee_id: null,
      contact_id: contact.id,
      sla_due_at: expect.any(String),
      sla_breached_at: null,
      resolved_at: null,
      closed_at: null,
      created_at: expect.any(String),
      updated_at: t.created_at,
    });
    expect(Date.parse(t.sla_due_at) - Date.parse(t.created_at)).toBe(24 * 3_600_000);
    const raised = (await svc('PATCH', `/tickets/${t.id}`, { priority: 'high', assignee_id: agent.id })).body;
    expect(Date.parse(raised.sla_due_at) - Date.parse(t.created_at)).toBe(8 * 3_600_000);

    const allowed: Array<[string, string]> = [
      ['pending', 'open'],
      ['open', 'pending'],
      ['pending', 'resolved'],
      ['resolved', 'open'],
      ['open', 'resolved'],
      ['resolved', 'closed'],
    ];
    let status = 'open';
    for (const [, to] of allowed) {
      const moved = await svc('PATCH', `/tickets/${t.id}`, { status: to });
      expect({ from: status, to, code: moved.status }).toEqual({ from: status, to, code: 200 });
      status = to;
    }
    const closed = (await svc('GET', `/tickets/${t.id}`)).body;
    expect(closed).toMatchObject({ status: 'closed', closed_at: expect.any(String), resolved_at: expect.any(String) });
    for (const to of ['open', 'pending', 'resolved'])
      expectSvcError(await svc('PATCH', `/tickets/${t.id}`, { status: to }), 409, 'conflict', `closed ticket cannot become ${to}`);
    expect(await snapshot('tickets', t.id)).toMatchObject({ status: 'closed' });

    const urgent = (await svc('POST', '/tickets', { subject: 'Outage', priority: 'urgent', assignee_id: agent.id })).body;
    const resolvedAgain = (await svc('POST', '/tickets', { subject: 'x' })).body;
    await svc('PATCH', `/tickets/${resolvedAgain.id}`, { status: 'resolved' });
    expectSvcError(await svc('PATCH', `/tickets/${resolvedAgain.id}`, { status: 'pending' }), 409, 'conflict');
    expect((await all('/tickets?priority=urgent')).map((x) => x.id)).toEqual([urgent.id]);
    expect((await all(`/tickets?assignee_id=${agent.id}`)).map((x) => x.id)).toEqual([urgent.id, t.id]);
    expect((await all('/tickets?status=resolved')).map((x) => x.id)).toEqual([resolvedAgain.id]);
    expect((await all(`/tickets?contact_id=${contact.id}`)).map((x) => x.id)).toEqual([t.id]);
    expect((await all('/tickets?sla_breached=false')).length).toBe(3);
  });

  test('comments, oldest first, in pages; none on a closed ticket', async () => {
    const t = (await svc('POST', '/tickets', { subject: 'Chatty' })).body;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await svc('POST', `/tickets/${t.id}/comments`, {
        body: `note ${i}`,
        author_id: alternate(i, null, agent.id),
        internal: i === 0,
      });
      expect(c.status).toBe(201);
      ids.push(c.body.id);
    }
    const comments = await all(`/tickets/${t.id}/comments`);
    expect(comments.map((c) => c.id)).toEqual(ids);
    expect(comments[0]).toEqual({
      id: ids[0],
      ticket_id: t.id,
      body: 'note 0',
      author_id: null,
      internal: true,
      created_at: expect.any(String),
    });
    expect(comments[1]).toMatchObject({ author_id: agent.id, internal: false });
    await svc('PATCH', `/tickets/${t.id}`, { status: 'closed' });
    expectSvcError(await svc('POST', `/tickets/${t.id}/comments`, { body: 'too late' }), 409, 'conflict', 'closed');
    expectSvcError(await svc('GET', `/tickets/${newId()}/comments`), 404, 'not_found');
    expectSvcError(await svc('POST', `/tickets/${newId()}/comments`, { body: 'x' }), 404, 'not_found');
    expect(await rows(`select count(*) as n from ticket_comments where workspace_id = $1 and ticket_id = '${t.id}'`)).toBe(5);
  });

  test('bad input changes nothing', async () => {
    const t = (await svc('POST', '/tickets', { subject: 'Stable' })).body;
    const before = {
      tickets: await rows('select count(*) as n from tickets where workspace_id = $1'),
      comments: await rows('select count(*) as n from ticket_comments where workspace_id = $1'),
      row: await snapshot('tickets', t.id),
    };
    expectSvcError(await svc('POST', '/tickets', { subject: '' }), 400, 'invalid_request', 'body.subject');
    expectSvcError(await svc('POST', '/tickets', { subject: 'x', priority: 'critical' }), 400, 'invalid_request', 'body.priority');
    expectSvcError(await svc('POST', '/tickets', { subject: 'x', assignee_id: newId() }), 400, 'invalid_request', 'body.assignee_id');
    expectSvcError(await svc('POST', '/tickets', { subject: 'x', contact_id: t.id }), 400, 'invalid_request', 'body.contact_id');
    expectSvcError(await svc('PATCH', `/tickets/${t.id}`, { status: 'reopened' }), 400, 'invalid_request', 'body.status');
    expectSvcError(
      await svc('PATCH', `/tickets/${t.id}`, { assignee_id: (await ws.tenant.account()).id, status: 'pending' }),
      400,
      'invalid_request',
      'body.assignee_id',
    );
    expectSvcError(
      await svc('POST', `/tickets/${t.id}/comments`, { body: 'x', author_id: newId() }),
      400,
      'invalid_request',
      'body.author_id',
    );
    expectSvcError(await svc('POST', `/tickets/${t.id}/comments`, { body: '' }), 400, 'invalid_request', 'body.body');
    expectSvcError(await svc('GET', '/tickets?sla_breached=maybe'), 400, 'invalid_request', 'query.sla_breached');
    expect({
      tickets: await rows('select count(*) as n from tickets where workspace_id = $1'),
      comments: await rows('select count(*) as n from ticket_comments where workspace_id = $1'),
      row: await snapshot('tickets', t.id),
    }).toEqual(before);
    const other = (await svcWorkspace(platform)).key(['ticket.*']);
    expectSvcError(await svc('GET', `/tickets/${t.id}`, undefined, (await other).key), 404, 'not_found');
    expectSvcError(await svc('PATCH', `/tickets/${t.id}`, { status: 'pending' }, (await other).key), 404, 'not_found');
  });
});

describe('approvals', () => {
  test('steps decided in order by their approvers; decisions listed oldest first; waiting-for-me filter', async () => {
    const [a, b, c] = [await ws.member('manager'), await ws.member('admin'), await ws.member('staff')];
    const res = await svc('POST', '/approvals', {
      title: 'Budget',
      description: '2027',
      requested_by: agent.id,
      approver_ids: [a.id, b.id, c.id],
    });
    expect(res.status).toBe(201);
    const approval = res.body;
    expect(approval).toEqual({
      id: expect.any(String),
      title: 'Budget',
      description: '2027',
      requested_by: agent.id,
      status: 'pending',
      current_step: 1,
      steps: [
        { step: 1, approver_id: a.id, status: 'pending', decided_at: null },
        { step: 2, approver_id: b.id, status: 'waiting', decided_at: null },
        { step: 3, approver_id: c.id, status: 'waiting', decided_at: null },
      ],
      completed_at: null,
      created_at: expect.any(String),
      updated_at: approval.created_at,
    });
    expect((await all(`/approvals?approver_id=${a.id}`)).map((x) => x.id)).toEqual([approval.id]);
    expect(await all(`/approvals?approver_id=${b.id}`)).toEqual([]);

    const first = await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: a.id, decision: 'approve', comment: 'fine' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      approval_id: approval.id,
      step: 1,
      approver_id: a.id,
      decision: 'approve',
      comment: 'fine',
      created_at: expect.any(String),
    });
    expectSvcError(
      await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: a.id, decision: 'approve' }),
      403,
      'forbidden',
      'step 2',
    );
    expectSvcError(
      await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: c.id, decision: 'approve' }),
      403,
      'forbidden',
      'step 2',
    );
    expect((await all(`/approvals?approver_id=${b.id}`)).map((x) => x.id)).toEqual([approval.id]);
    await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: b.id, decision: 'approve' });
    await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: c.id, decision: 'approve' });
    const done = (await svc('GET', `/approvals/${approval.id}`)).body;
    expect(done).toMatchObject({ status: 'approved', current_step: null, completed_at: expect.any(String) });
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual(['approved', 'approved', 'approved']);
    expect((await all(`/approvals/${approval.id}/decisions`)).map((d) => d.step)).toEqual([1, 2, 3]);
    expectSvcError(await svc('POST', `/approvals/${approval.id}/cancel`, { requested_by: agent.id }), 409, 'conflict');
    expect((await all('/approvals?status=approved')).map((x) => x.id)).toEqual([approval.id]);
  });

  test('a rejection ends the request and skips the later steps; cancel by the requester only', async () => {
    const [a, b] = [await ws.member('manager'), await ws.member('manager')];
    const approval = (await svc('POST', '/approvals', { title: 'Car', requested_by: agent.id, approver_ids: [a.id, b.id] })).body;
    await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: a.id, decision: 'reject', comment: 'no' });
    const rejected = (await svc('GET', `/approvals/${approval.id}`)).body;
    expect(rejected).toMatchObject({ status: 'rejected', current_step: null });
    expect(rejected.steps.map((s: { status: string }) => s.status)).toEqual(['rejected', 'skipped']);
    expectSvcError(await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: b.id, decision: 'approve' }), 409, 'conflict');

    const second = (await svc('POST', '/approvals', { title: 'Bike', requested_by: agent.id, approver_ids: [a.id] })).body;
    expectSvcError(await svc('POST', `/approvals/${second.id}/cancel`, { requested_by: a.id }), 403, 'forbidden', 'requested');
    const cancelled = (await svc('POST', `/approvals/${second.id}/cancel`, { requested_by: agent.id })).body;
    expect(cancelled).toMatchObject({ status: 'cancelled', current_step: null });
    expect(cancelled.steps[0].status).toBe('skipped');
    expect((await svc('POST', `/approvals/${second.id}/cancel`, { requested_by: agent.id })).body).toEqual(cancelled);
    expectSvcError(await svc('POST', `/approvals/${second.id}/decisions`, { approver_id: a.id, decision: 'approve' }), 409, 'conflict');
    expect((await all(`/approvals?requested_by=${agent.id}&status=cancelled`)).map((x) => x.id)).toEqual([second.id]);
  });

  test('bad input changes nothing', async () => {
    const a = await ws.member('manager');
    const approval = (await svc('POST', '/approvals', { title: 'Stable', requested_by: agent.id, approver_ids: [a.id] })).body;
    const count2 = () =>
      rows(
        'select (select count(*) from approvals where workspace_id = $1) + (select count(*) from approval_decisions d join approvals x on x.id = d.approval_id where x.workspace_id = $1) as n',
      );
    const before = { n: await count2(), row: await snapshot('approvals', approval.id) };
    expectSvcError(
      await svc('POST', '/approvals', { title: 'x', requested_by: agent.id, approver_ids: [] }),
      400,
      'invalid_request',
      'body.approver_ids',
    );
    expectSvcError(
      await svc('POST', '/approvals', { title: 'x', requested_by: agent.id, approver_ids: Array.from({ length: 11 }, () => a.id) }),
      400,
      'invalid_request',
      'body.approver_ids',
    );
    expectSvcError(
      await svc('POST', '/approvals', { title: 'x', requested_by: agent.id, approver_ids: [a.id, a.id] }),
      400,
      'invalid_request',
      'body.approver_ids',
    );
    expectSvcError(
      await svc('POST', '/approvals', { title: 'x', requested_by: agent.id, approver_ids: [newId()] }),
      400,
      'invalid_request',
      'body.approver_ids',
    );
    expectSvcError(
      await svc('POST', '/approvals', { title: 'x', requested_by: (await ws.tenant.account()).id, approver_ids: [a.id] }),
      400,
      'invalid_request',
      'body.requested_by',
    );
    expectSvcError(
      await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: a.id, decision: 'maybe' }),
      400,
      'invalid_request',
      'body.decision',
    );
    expectSvcError(await svc('POST', `/approvals/${approval.id}/cancel`, {}), 400, 'invalid_request', 'body.requested_by');
    expect({ n: await count2(), row: await snapshot('approvals', approval.id) }).toEqual(before);
    const other = (await (await svcWorkspace(platform)).key(['approval.*'])).key;
    expectSvcError(await svc('GET', `/approvals/${approval.id}`, undefined, other), 404, 'not_found');
    expectSvcError(
      await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: a.id, decision: 'approve' }, other),
      404,
      'not_found',
    );
    expectSvcError(await svc('GET', `/approvals/${approval.id}/decisions`, undefined, other), 404, 'not_found');
  });

  test('scopes: decisions and approvals are separate actions; tickets need ticket scopes', async () => {
    const a = await ws.member('manager');
    const approval = (await svc('POST', '/approvals', { title: 'Scoped', requested_by: agent.id, approver_ids: [a.id] })).body;
    const decider = (await ws.key(['approval.decisions.create', 'approval.decisions.read'])).key;
    expectSvcError(await svc('GET', `/approvals/${approval.id}`, undefined, decider), 403, 'forbidden', 'approval.approvals.read');
    expectSvcError(
      await svc('POST', `/approvals/${approval.id}/cancel`, { requested_by: agent.id }, decider),
      403,
      'forbidden',
      'approval.approvals.update',
    );
    expect((await svc('POST', `/approvals/${approval.id}/decisions`, { approver_id: a.id, decision: 'approve' }, decider)).status).toBe(
      201,
    );
    expect((await svc('GET', `/approvals/${approval.id}/decisions`, undefined, decider)).body.items).toHaveLength(1);
    const readOnly = (await ws.key(['read-only'])).key;
    expect((await svc('GET', '/tickets', undefined, readOnly)).status).toBe(200);
    expectSvcError(await svc('POST', '/tickets', { subject: 'x' }, readOnly), 403, 'forbidden', 'ticket.tickets.create');
    expectSvcError(await svc('POST', `/tickets/${newId()}/comments`, { body: 'x' }, readOnly), 403, 'forbidden', 'ticket.comments.create');
    expectSvcError(await svc('GET', '/tickets', undefined, decider), 403, 'forbidden', 'ticket.tickets.read');
  });
});
