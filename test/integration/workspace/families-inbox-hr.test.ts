// The inbox (/conversations, /messages) and HR (/employees, /attendance, /leaves) families over the real listener:
// operations and their rules, filters and paging, scopes, and bad input answered 400 or 409 with nothing changed.
import { count } from '../../helpers/expect.js';
import { expectSvcError, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { newId } from '../../../src/platform/ids.js';

let platform: TestPlatform;
let ws: SvcWorkspace;
let key: string;
let agent: TestAccount;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['workspace'] });
  ws = await svcWorkspace(platform);
  key = (await ws.key(['inbox.*', 'hr.*', 'crm.*'])).key;
  agent = await ws.member('staff');
});
afterAll(async () => {
  await platform.stop();
});

const svc = (method: string, path: string, body?: unknown, k = key) =>
  call(platform.workspaceUrl, method, `/api/v1${path}`, { headers: svcHeaders(k), body });
const rows = (table: string) => count(platform.db, `select count(*) as n from ${table} where workspace_id = $1`, [ws.id]);
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

describe('conversations and messages', () => {
  test('open, message both ways, assign, close and reopen; lists filter and page', async () => {
    const contact = (await svc('POST', '/contacts', { name: 'Customer' })).body;
    const created = await svc('POST', '/conversations', {
      channel: 'email',
      subject: 'Invoice?',
      contact_id: contact.id,
      customer_handle: 'c@example.com',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/conversations/${created.body.id}`);
    const c = created.body;
    expect(c).toEqual({
      id: expect.any(String),
      channel: 'email',
      subject: 'Invoice?',
      contact_id: contact.id,
      customer_handle: 'c@example.com',
      status: 'open',
      assignee_id: null,
      last_message_at: null,
      closed_at: null,
      created_at: expect.any(String),
      updated_at: c.created_at,
    });
    const inbound = (await svc('POST', '/messages', { conversation_id: c.id, direction: 'inbound', text: 'Where is my invoice?' })).body;
    expect(inbound).toEqual({
      id: expect.any(String),
      conversation_id: c.id,
      direction: 'inbound',
      text: 'Where is my invoice?',
      author_id: null,
      created_at: expect.any(String),
    });
    const outbound = (await svc('POST', '/messages', { conversation_id: c.id, text: 'Attached.', author_id: agent.id })).body;
    expect(outbound).toMatchObject({ direction: 'outbound', author_id: agent.id });
    expect((await svc('GET', `/conversations/${c.id}`)).body.last_message_at).toBe(outbound.created_at);
    expect((await svc('GET', `/messages/${inbound.id}`)).body).toEqual(inbound);
    expect((await all(`/messages?conversation_id=${c.id}`)).map((m) => m.id)).toEqual([outbound.id, inbound.id]);
    expect((await all(`/messages?conversation_id=${c.id}&direction=inbound`)).map((m) => m.id)).toEqual([inbound.id]);

    expect((await svc('POST', `/conversations/${c.id}/assign`, { assignee_id: agent.id })).body.assignee_id).toBe(agent.id);
    expect((await all(`/conversations?assignee_id=${agent.id}`)).map((x) => x.id)).toEqual([c.id]);
    const closed = (await svc('POST', `/conversations/${c.id}/close`)).body;
    expect(closed).toMatchObject({ status: 'closed', closed_at: expect.any(String) });
    expect((await svc('POST', `/conversations/${c.id}/close`)).body).toEqual(closed);
    expect((await all('/conversations?status=closed')).map((x) => x.id)).toEqual([c.id]);
    expect((await svc('POST', `/conversations/${c.id}/reopen`)).body).toMatchObject({ status: 'open', closed_at: null });
    expect((await svc('POST', `/conversations/${c.id}/assign`, { assignee_id: null })).body.assignee_id).toBeNull();
    const sms = (await svc('POST', '/conversations', { channel: 'sms' })).body;
    expect((await all('/conversations?channel=sms')).map((x) => x.id)).toEqual([sms.id]);
    expect((await all(`/conversations?contact_id=${contact.id}`)).map((x) => x.id)).toEqual([c.id]);
  });

  test('bad input changes nothing: unknown conversation, author on inbound, non-member, closed conversation, schema', async () => {
    const c = (await svc('POST', '/conversations', { channel: 'webchat' })).body;
    await svc('POST', `/conversations/${c.id}/close`);
    const before = {
      conversations: await rows('inbox_conversations'),
      messages: await rows('inbox_messages'),
      row: await snapshot('inbox_conversations', c.id),
    };
    const other = await svcWorkspace(platform);
    const theirs = (await svc('POST', '/conversations', { channel: 'sms' }, (await other.key(['inbox.*'])).key)).body;
    expectSvcError(
      await svc('POST', '/messages', { conversation_id: theirs.id, text: 'hi' }),
      400,
      'invalid_request',
      'body.conversation_id',
    );
    expectSvcError(
      await svc('POST', '/messages', { conversation_id: c.id, direction: 'inbound', text: 'hi', author_id: agent.id }),
      400,
      'invalid_request',
      'body.author_id',
    );
    expectSvcError(
      await svc('POST', '/messages', { conversation_id: c.id, direction: 'inbound', text: 'hi', author_id: newId() }),
      400,
      'invalid_request',
      'body.author_id',
    );
    expectSvcError(await svc('POST', '/messages', { conversation_id: c.id, text: 'hi' }), 409, 'conflict', 'reopen');
    expectSvcError(await svc('POST', '/messages', { conversation_id: c.id, text: '   ' }), 400, 'invalid_request', 'body.text');
    expectSvcError(
      await svc('POST', '/messages', { conversation_id: c.id, text: 'x', direction: 'sideways' }),
      400,
      'invalid_request',
      'body.direction',
    );
    expectSvcError(
      await svc('POST', `/conversations/${c.id}/assign`, { assignee_id: (await ws.tenant.account()).id }),
      400,
      'invalid_request',
      'body.assignee_id',
    );
    expectSvcError(await svc('POST', `/conversations/${c.id}/assign`, {}), 400, 'invalid_request', 'body.assignee_id');
    expectSvcError(await svc('POST', '/conversations', { channel: 'pigeon' }), 400, 'invalid_request', 'body.channel');
    expectSvcError(await svc('POST', '/conversations', { channel: 'sms', contact_id: newId() }), 400, 'invalid_request', 'body.contact_id');
    expectSvcError(await svc('GET', '/messages?cursor=x'), 400, 'invalid_request', 'query.cursor');
    expect({
      conversations: await rows('inbox_conversations'),
      messages: await rows('inbox_messages'),
      row: await snapshot('inbox_conversations', c.id),
    }).toEqual(before);
    expectSvcError(await svc('GET', `/conversations/${theirs.id}`), 404, 'not_found');
    expectSvcError(await svc('POST', `/conversations/${theirs.id}/close`), 404, 'not_found');
    expectSvcError(await svc('GET', `/messages/${newId()}`), 404, 'not_found');
  });

  test('scopes: inbox.send sends only; inbox.messages.read reads only', async () => {
    const c = (await svc('POST', '/conversations', { channel: 'email' })).body;
    const sender = (await ws.key(['inbox.send'])).key;
    expect((await svc('POST', '/messages', { conversation_id: c.id, text: 'sent with inbox.send' }, sender)).status).toBe(201);
    expectSvcError(await svc('GET', '/messages', undefined, sender), 403, 'forbidden', 'inbox.messages.read');
    expectSvcError(await svc('POST', '/conversations', { channel: 'sms' }, sender), 403, 'forbidden', 'inbox.conversations.create');
    expectSvcError(await svc('POST', `/conversations/${c.id}/close`, undefined, sender), 403, 'forbidden', 'inbox.conversations.update');
    const reader = (await ws.key(['inbox.messages.read'])).key;
    expect((await svc('GET', '/messages', undefined, reader)).status).toBe(200);
    expectSvcError(await svc('POST', '/messages', { conversation_id: c.id, text: 'x' }, reader), 403, 'forbidden', 'inbox.messages.send');
    expectSvcError(await svc('GET', '/conversations', undefined, reader), 403, 'forbidden', 'inbox.conversations.read');
  });
});

describe('employees', () => {
  test('add, change, terminate; filters; one active employee per member; a manager must be an active employee', async () => {
    const boss = await svc('POST', '/employees', { name: 'Boss', department: 'Ops', hire_date: '2020-01-01', account_id: ws.owner.id });
    expect(boss.status).toBe(201);
    expect(boss.body).toEqual({
      id: expect.any(String),
      name: 'Boss',
      email: null,
      job_title: null,
      department: 'Ops',
      account_id: ws.owner.id,
      manager_id: null,
      hire_date: '2020-01-01',
      status: 'active',
      terminated_on: null,
      termination_reason: null,
      created_at: expect.any(String),
      updated_at: boss.body.created_at,
    });
    const worker = (await svc('POST', '/employees', { name: 'Worker', email: 'w@example.com', manager_id: boss.body.id })).body;
    expect(worker.hire_date).toBe(new Date().toISOString().slice(0, 10));
    expect((await svc('PATCH', `/employees/${worker.id}`, { job_title: 'Welder', department: 'Ops' })).body).toMatchObject({
      job_title: 'Welder',
      department: 'Ops',
    });
    expect((await all(`/employees?manager_id=${boss.body.id}`)).map((e) => e.id)).toEqual([worker.id]);
    expect((await all('/employees?department=Ops')).map((e) => e.id)).toEqual([worker.id, boss.body.id]);

    const before = { employees: await rows('hr_employees'), worker: await snapshot('hr_employees', worker.id) };
    expectSvcError(await svc('POST', '/employees', { name: 'Twin', account_id: ws.owner.id }), 409, 'conflict');
    expectSvcError(
      await svc('POST', '/employees', { name: 'Stranger', account_id: (await ws.tenant.account()).id }),
      400,
      'invalid_request',
      'body.account_id',
    );
    expectSvcError(await svc('POST', '/employees', { name: 'x', manager_id: newId() }), 400, 'invalid_request', 'body.manager_id');
    expectSvcError(await svc('POST', '/employees', { name: 'x', hire_date: '2026-02-29' }), 400, 'invalid_request', 'body.hire_date');
    expectSvcError(await svc('POST', '/employees', { name: 'x', hire_date: '0999-01-01' }), 400, 'invalid_request', 'body.hire_date');
    expectSvcError(await svc('PATCH', `/employees/${worker.id}`, { manager_id: worker.id }), 400, 'invalid_request', 'body.manager_id');
    expectSvcError(await svc('PATCH', `/employees/${worker.id}`, { account_id: agent.id }), 400, 'invalid_request', 'body.account_id');
    expectSvcError(
      await svc('POST', `/employees/${worker.id}/terminate`, { terminated_on: '1999-12-31' }),
      400,
      'invalid_request',
      'body.terminated_on',
    );
    expect({ employees: await rows('hr_employees'), worker: await snapshot('hr_employees', worker.id) }).toEqual(before);

    const gone = (await svc('POST', `/employees/${boss.body.id}/terminate`, { terminated_on: '2026-06-30', reason: 'retired' })).body;
    expect(gone).toMatchObject({ status: 'terminated', terminated_on: '2026-06-30', termination_reason: 'retired' });
    expect((await svc('POST', `/employees/${boss.body.id}/terminate`, {})).body).toEqual(gone);
    expectSvcError(await svc('PATCH', `/employees/${boss.body.id}`, { name: 'Back' }), 409, 'conflict');
    expectSvcError(await svc('PATCH', `/employees/${worker.id}`, { manager_id: boss.body.id }), 400, 'invalid_request', 'body.manager_id');
    expect((await all('/employees?status=terminated')).map((e) => e.id)).toEqual([boss.body.id]);
    // The member is free to be employed again.
    expect((await svc('POST', '/employees', { name: 'Boss again', account_id: ws.owner.id })).status).toBe(201);
  });
});

describe('attendance', () => {
  test('check in, check out, no overlap, nothing in the future; lists by check-in time with filters', async () => {
    const e = (await svc('POST', '/employees', { name: 'Clocker' })).body;
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms).toISOString();
    const morning = await svc('POST', '/attendance', {
      employee_id: e.id,
      check_in: at(10 * 3_600_000),
      check_out: at(6 * 3_600_000),
      note: 'morning',
    });
    expect(morning.status).toBe(201);
    expect(morning.body).toMatchObject({ employee_id: e.id, worked_minutes: 240, note: 'morning' });
    const open = (await svc('POST', '/attendance', { employee_id: e.id, check_in: at(60_000) })).body;
    expect(open).toMatchObject({ check_out: null, worked_minutes: null });

    const before = { rows: await rows('hr_attendance'), open: await snapshot('hr_attendance', open.id) };
    expectSvcError(await svc('POST', '/attendance', { employee_id: e.id }), 409, 'conflict', 'overlap');
    expectSvcError(
      await svc('POST', '/attendance', { employee_id: e.id, check_in: at(8 * 3_600_000), check_out: at(7 * 3_600_000) }),
      409,
      'conflict',
    );
    expectSvcError(
      await svc('POST', '/attendance', { employee_id: e.id, check_in: new Date(now + 3_600_000).toISOString() }),
      400,
      'invalid_request',
      'body.check_in',
    );
    expectSvcError(
      await svc('POST', '/attendance', { employee_id: e.id, check_in: at(20 * 3_600_000), check_out: at(21 * 3_600_000) }),
      400,
      'invalid_request',
      'body.check_out',
    );
    expectSvcError(await svc('POST', '/attendance', { employee_id: newId() }), 400, 'invalid_request', 'body.employee_id');
    expectSvcError(
      await svc('PATCH', `/attendance/${open.id}`, { check_out: at(2 * 3_600_000) }),
      400,
      'invalid_request',
      'body.check_out',
    );
    expectSvcError(await svc('PATCH', `/attendance/${open.id}`, { check_out: 'yesterday' }), 400, 'invalid_request', 'body.check_out');
    expect({ rows: await rows('hr_attendance'), open: await snapshot('hr_attendance', open.id) }).toEqual(before);

    const closed = (await svc('PATCH', `/attendance/${open.id}`, { check_out: new Date().toISOString(), note: 'done' })).body;
    expect(closed).toMatchObject({ note: 'done', worked_minutes: expect.any(Number) });
    expect((await all(`/attendance?employee_id=${e.id}`)).map((r) => r.id)).toEqual([open.id, morning.body.id]);
    expect((await all(`/attendance?employee_id=${e.id}&from=${encodeURIComponent(at(5 * 3_600_000))}`)).map((r) => r.id)).toEqual([
      open.id,
    ]);
    expect((await all(`/attendance?employee_id=${e.id}&to=${encodeURIComponent(at(5 * 3_600_000))}`)).map((r) => r.id)).toEqual([
      morning.body.id,
    ]);
    expect(await all(`/attendance?employee_id=${e.id}&open=true`)).toEqual([]);
    // Reopening the record is checking in again: refused while another check-in is open.
    const again = (await svc('POST', '/attendance', { employee_id: e.id })).body;
    expectSvcError(await svc('PATCH', `/attendance/${open.id}`, { check_out: null }), 409, 'conflict');
    expect((await all(`/attendance?employee_id=${e.id}&open=true`)).map((r) => r.id)).toEqual([again.id]);

    await svc('POST', `/employees/${e.id}/terminate`, {});
    expect((await svc('GET', `/attendance/${again.id}`)).body.check_out).not.toBeNull();
    expectSvcError(await svc('POST', '/attendance', { employee_id: e.id }), 409, 'conflict', 'terminated');
  });
});

describe('leaves', () => {
  test('request, approve, reject; no overlap; dates checked; lists filter', async () => {
    const e = (await svc('POST', '/employees', { name: 'Traveller' })).body;
    const created = await svc('POST', '/leaves', {
      employee_id: e.id,
      type: 'annual',
      start_date: '2027-03-01',
      end_date: '2027-03-05',
      reason: 'skiing',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      employee_id: e.id,
      type: 'annual',
      start_date: '2027-03-01',
      end_date: '2027-03-05',
      days: 5,
      reason: 'skiing',
      status: 'requested',
      decided_by: null,
      decided_at: null,
      created_at: expect.any(String),
      updated_at: created.body.created_at,
    });
    const before = await rows('hr_leaves');
    expectSvcError(
      await svc('POST', '/leaves', { employee_id: e.id, type: 'sick', start_date: '2027-03-05', end_date: '2027-03-06' }),
      409,
      'conflict',
      'overlap',
    );
    expectSvcError(
      await svc('POST', '/leaves', { employee_id: e.id, type: 'sick', start_date: '2027-04-02', end_date: '2027-04-01' }),
      400,
      'invalid_request',
      'body.end_date',
    );
    expectSvcError(
      await svc('POST', '/leaves', { employee_id: e.id, type: 'sick', start_date: '2027-01-01', end_date: '2028-06-01' }),
      400,
      'invalid_request',
      'body.end_date',
    );
    expectSvcError(
      await svc('POST', '/leaves', { employee_id: e.id, type: 'holiday', start_date: '2027-05-01', end_date: '2027-05-01' }),
      400,
      'invalid_request',
      'body.type',
    );
    expectSvcError(
      await svc('POST', `/leaves/${created.body.id}/approve`, { decided_by: newId() }),
      400,
      'invalid_request',
      'body.decided_by',
    );
    expect(await rows('hr_leaves')).toBe(before);
    expect((await svc('GET', `/leaves/${created.body.id}`)).body.status).toBe('requested');

    const approved = (await svc('POST', `/leaves/${created.body.id}/approve`, { decided_by: agent.id })).body;
    expect(approved).toMatchObject({ status: 'approved', decided_by: agent.id, decided_at: expect.any(String) });
    expectSvcError(await svc('POST', `/leaves/${created.body.id}/reject`, {}), 409, 'conflict');
    const other = (await svc('POST', '/leaves', { employee_id: e.id, type: 'unpaid', start_date: '2027-07-01', end_date: '2027-07-01' }))
      .body;
    expect(
      (await call(platform.workspaceUrl, 'POST', `/api/v1/leaves/${other.id}/reject`, { headers: svcHeaders(key) })).body,
    ).toMatchObject({ status: 'rejected', decided_by: null });
    expectSvcError(await svc('POST', `/leaves/${other.id}/approve`, {}), 409, 'conflict');
    // A rejected leave frees its dates.
    expect(
      (await svc('POST', '/leaves', { employee_id: e.id, type: 'annual', start_date: '2027-07-01', end_date: '2027-07-02' })).status,
    ).toBe(201);
    expect((await all(`/leaves?employee_id=${e.id}&status=approved`)).map((l) => l.id)).toEqual([created.body.id]);
    expect((await all(`/leaves?employee_id=${e.id}&type=unpaid`)).map((l) => l.id)).toEqual([other.id]);
    await svc('POST', `/employees/${e.id}/terminate`, {});
    expectSvcError(
      await svc('POST', '/leaves', { employee_id: e.id, type: 'annual', start_date: '2027-09-01', end_date: '2027-09-01' }),
      409,
      'conflict',
      'terminated',
    );
  });

  test('scopes: hr.read reads every HR family and writes none', async () => {
    const reader = (await ws.key(['hr.read'])).key;
    for (const path of ['/employees', '/attendance', '/leaves']) expect((await svc('GET', path, undefined, reader)).status).toBe(200);
    expectSvcError(await svc('POST', '/employees', { name: 'x' }, reader), 403, 'forbidden', 'hr.employees.create');
    expectSvcError(await svc('POST', '/attendance', { employee_id: newId() }, reader), 403, 'forbidden', 'hr.attendance.create');
    expectSvcError(await svc('POST', `/leaves/${newId()}/approve`, {}, reader), 403, 'forbidden', 'hr.leaves.update');
    expectSvcError(await svc('POST', `/employees/${newId()}/terminate`, {}, reader), 403, 'forbidden', 'hr.employees.update');
    expectSvcError(await svc('GET', '/employees', undefined, (await ws.key(['crm.*'])).key), 403, 'forbidden', 'hr.employees.read');
  });
});
