// Rows the workspace suite's dictionaries point at, made through the API before Schemathesis starts: without them every
// operation on a record (GET, PATCH, the moves below /{id}) would only ever see random ids and answer 404, and every
// body that names another record or a member would only ever be refused, so their logic would never be fuzzed. One
// dictionary per kind of id; an operation that moves a record out of the state it needs (convert, terminate, send,
// accept, decline, approve, reject, cancel, decide, close, delete, revoke) draws from rows of its own, several of them,
// so that each unit phase still meets one in the state it needs. The key's workspace is bob's, with carol as a second
// member, so that the fields naming members (owner_id, assignee_id, approver_ids, ...) have members to name.
import { randomUUID } from 'node:crypto';

async function call(baseUrl, method, path, headers, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status < 200 || res.status >= 300)
    throw new Error(`seeding the workspace suite: ${method} ${path} answered ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const times = (n, make) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

export async function seedWorkspace({
  baseUrl,
  partnerUrl,
  chatUrl,
  adminToken,
  svcKey,
  bobToken,
  aliceToken,
  accounts,
  aliceWorkspace,
  aliceKeyIds,
  webhook,
  delivery,
}) {
  const as = (method, path, body) =>
    call(baseUrl, method, path, { authorization: `Bearer ${svcKey}`, 'idempotency-key': randomUUID() }, body);
  const id = async (method, path, body) => (await as(method, path, body)).id;
  const { bob, carol } = accounts;

  // The chat suite, which runs first, may have deactivated or banned carol (her id is in its dictionaries and its
  // responses): she is made active again before she joins.
  await call(chatUrl, 'PATCH', `/api/v1/accounts/${carol}/status`, { authorization: `Bearer ${adminToken}` }, { status: 'ACTIVE' });
  // carol joins bob's workspace (the key's) through the partner administration API.
  const bobWorkspaces = await call(partnerUrl, 'GET', '/api/v1/workspaces?limit=100', { authorization: `Bearer ${bobToken}` });
  const keyWorkspace = bobWorkspaces.data.find((w) => w.name === 'Contract B').id;
  await call(
    partnerUrl,
    'PUT',
    `/api/v1/workspaces/${keyWorkspace}/members/${carol}`,
    { authorization: `Bearer ${bobToken}` },
    { role: 'staff' },
  );
  const members = [bob, carol];

  // CRM.
  const companies = await times(2, (i) => id('POST', '/api/v1/companies', { name: `Contract company ${i}` }));
  const contacts = await times(2, (i) => id('POST', '/api/v1/contacts', { name: `Contract contact ${i}`, company_id: companies[0] }));
  const deals = await times(2, (i) =>
    id('POST', '/api/v1/deals', { name: `Contract deal ${i}`, contact_id: contacts[0], company_id: companies[0], owner_id: bob }),
  );
  const leads = await times(2, (i) => id('POST', '/api/v1/leads', { name: `Contract lead ${i}` }));
  const convertibleLeads = await times(8, (i) => id('POST', '/api/v1/leads', { name: `Contract lead to convert ${i}` }));
  const quotation = (i) => id('POST', '/api/v1/quotations', { currency: 'EUR', amount_total: 1000 + i, deal_id: deals[0] });
  const quotations = await times(2, quotation);
  const draftQuotations = await times(8, quotation);
  const sendableQuotations = await times(8, quotation);
  const sent = async (i) => {
    const q = await quotation(i);
    await as('POST', `/api/v1/quotations/${q}/send`, {});
    return q;
  };
  const acceptableQuotations = await times(8, sent);
  const declinableQuotations = await times(8, sent);

  // Inbox.
  const conversations = await times(4, () =>
    id('POST', '/api/v1/conversations', { channel: 'email', subject: 'Contract', contact_id: contacts[0] }),
  );
  const messages = await times(2, (i) =>
    id('POST', '/api/v1/messages', { conversation_id: conversations[0], direction: 'inbound', text: `Hello ${i}` }),
  );

  // HR: employees for the bodies (never terminated: terminate draws from its own), attendance, leaves.
  const employees = await times(2, (i) => id('POST', '/api/v1/employees', { name: `Contract employee ${i}`, hire_date: '2020-01-01' }));
  const changeableEmployees = await times(2, (i) =>
    id('POST', '/api/v1/employees', { name: `Contract changeable ${i}`, hire_date: '2020-01-01' }),
  );
  const terminableEmployees = await times(8, (i) =>
    id('POST', '/api/v1/employees', { name: `Contract terminable ${i}`, hire_date: '2000-01-01' }),
  );
  // An employee still checked in takes no new attendance (409), and a first check-in without check-out leaves it so:
  // new attendance draws from employees of its own, enough for every phase to find one free.
  const attendanceEmployees = await times(60, (i) =>
    id('POST', '/api/v1/employees', { name: `Contract attendance ${i}`, hire_date: '2015-01-01' }),
  );
  const attendance = await times(2, (i) =>
    id('POST', '/api/v1/attendance', {
      employee_id: employees[0],
      check_in: `2021-0${i + 1}-01T08:00:00Z`,
      check_out: `2021-0${i + 1}-01T17:00:00Z`,
    }),
  );
  const leave = (i) =>
    id('POST', '/api/v1/leaves', {
      employee_id: employees[1],
      type: 'annual',
      start_date: `2030-${String(1 + Math.floor(i / 4)).padStart(2, '0')}-${String(1 + (i % 4) * 7).padStart(2, '0')}`,
      end_date: `2030-${String(1 + Math.floor(i / 4)).padStart(2, '0')}-${String(2 + (i % 4) * 7).padStart(2, '0')}`,
    });
  const leaves = [];
  for (let i = 0; i < 26; i++) leaves.push(await leave(i));
  const approvableLeaves = leaves.slice(2, 14);
  const rejectableLeaves = leaves.slice(14);

  // Tickets: their updates may close them, so comments go to tickets of their own.
  const tickets = await times(8, (i) =>
    id('POST', '/api/v1/tickets', { subject: `Contract ticket ${i}`, contact_id: contacts[0], assignee_id: bob }),
  );
  const commentTickets = await times(2, (i) => id('POST', '/api/v1/tickets', { subject: `Contract discussion ${i}` }));

  // Approvals: bob asks, carol then bob approve; cancel and decide each have their own.
  const approval = (i) =>
    id('POST', '/api/v1/approvals', { title: `Contract approval ${i}`, requested_by: bob, approver_ids: [carol, bob] });
  const approvals = await times(2, approval);
  const cancellableApprovals = await times(8, approval);
  const decidableApprovals = await times(8, approval);

  // Webhooks: the suite's own, and a few to delete.
  const hookBody = { name: 'Contract', url: 'https://hooks.example.invalid/in', events: ['lead.created'] };
  const deletableWebhooks = await times(6, () => id('POST', '/api/v1/webhooks', hookBody));
  // A Disabled webhook takes no more resends or replays: disable draws from webhooks of its own.
  const disablableWebhooks = await times(6, () => id('POST', '/api/v1/webhooks', hookBody));
  // The same for the Owner/Admin surface, in alice's workspace with her token (alice's webhook and its ping delivery).
  const asAlice = (body) =>
    call(baseUrl, 'POST', `/api/v1/workspaces/${aliceWorkspace}/webhooks`, { authorization: `Bearer ${aliceToken}` }, body);
  const aliceHook = await asAlice(hookBody);
  const aliceWebhooks = [aliceHook.id];
  const aliceDeliveries = [aliceHook.ping.delivery_id];
  const aliceDeletableWebhooks = (await times(6, () => asAlice(hookBody))).map((w) => w.id);
  const aliceDisablableWebhooks = (await times(6, () => asAlice(hookBody))).map((w) => w.id);

  const perOperation = {
    getCompany: 'companies',
    updateCompany: 'companies',
    getContact: 'contacts',
    updateContact: 'contacts',
    getDeal: 'deals',
    updateDeal: 'deals',
    getLead: 'leads',
    updateLead: 'leads',
    convertLead: 'convertibleLeads',
    getQuotation: 'quotations',
    updateQuotation: 'draftQuotations',
    sendQuotation: 'sendableQuotations',
    acceptQuotation: 'acceptableQuotations',
    declineQuotation: 'declinableQuotations',
    getConversation: 'conversations',
    assignConversation: 'conversations',
    closeConversation: 'conversations',
    reopenConversation: 'conversations',
    getMessage: 'messages',
    getEmployee: 'employees',
    updateEmployee: 'changeableEmployees',
    terminateEmployee: 'terminableEmployees',
    getAttendance: 'attendance',
    updateAttendance: 'attendance',
    getLeave: 'leaves',
    approveLeave: 'approvableLeaves',
    rejectLeave: 'rejectableLeaves',
    getTicket: 'tickets',
    updateTicket: 'tickets',
    listTicketComments: 'commentTickets',
    createTicketComment: 'commentTickets',
    getApproval: 'approvals',
    listApprovalDecisions: 'approvals',
    cancelApproval: 'cancellableApprovals',
    createApprovalDecision: 'decidableApprovals',
    getWebhook: 'webhooks',
    updateWebhook: 'webhooks',
    listWebhookDeliveries: 'webhooks',
    replayWebhookDelivery: 'webhooks',
    resendWebhookDelivery: 'webhooks',
    disableWebhook: 'disablableWebhooks',
    pauseWebhook: 'webhooks',
    resumeWebhook: 'webhooks',
    testWebhook: 'webhooks',
    deleteWebhook: 'deletableWebhooks',
    getWorkspaceWebhook: 'aliceWebhooks',
    updateWorkspaceWebhook: 'aliceWebhooks',
    listWorkspaceWebhookDeliveries: 'aliceWebhooks',
    pauseWorkspaceWebhook: 'aliceWebhooks',
    resumeWorkspaceWebhook: 'aliceWebhooks',
    testWorkspaceWebhook: 'aliceWebhooks',
    disableWorkspaceWebhook: 'aliceDisablableWebhooks',
    deleteWorkspaceWebhook: 'aliceDeletableWebhooks',
  };
  // Resend and replay on the Owner/Admin surface take alice's webhook and its delivery together.
  const aliceDeliveryOperations = ['resendWorkspaceWebhookDelivery', 'replayWorkspaceWebhookDelivery'];
  const dictionaries = {
    members,
    companies,
    contacts,
    deals,
    leads,
    convertibleLeads,
    quotations,
    draftQuotations,
    sendableQuotations,
    acceptableQuotations,
    declinableQuotations,
    conversations,
    messages,
    employees,
    changeableEmployees,
    terminableEmployees,
    attendance,
    leaves,
    approvableLeaves,
    rejectableLeaves,
    tickets,
    commentTickets,
    approvals,
    cancellableApprovals,
    decidableApprovals,
    webhooks: [webhook],
    deletableWebhooks,
    disablableWebhooks,
    deliveries: [delivery],
    aliceWebhooks,
    aliceDeletableWebhooks,
    aliceDisablableWebhooks,
    aliceDeliveries,
    webhookUrls: ['https://hooks.example.invalid/in'],
    attendanceEmployees,
    // Attendance instants may not be in the future and check_out follows check_in: past check-ins, later check-outs.
    checkIns: ['2019-03-04T08:00:00Z', '2019-11-20T07:30:00+01:00'],
    checkOuts: ['2022-03-04T17:00:00Z', '2023-06-01T18:00:00+02:00'],
  };
  const first = (name) => dictionaries[name][0];
  return {
    dictionaries,
    // Bindings that apply to every operation with the parameter (path.id names a different kind per operation).
    parameters: {
      'body.owner_id': 'members',
      'query.owner_id': 'members',
      'body.assignee_id': 'members',
      'query.assignee_id': 'members',
      'body.author_id': 'members',
      'body.decided_by': 'members',
      'body.requested_by': 'members',
      'query.requested_by': 'members',
      'body.approver_ids[*]': 'members',
      'body.approver_id': 'members',
      'query.approver_id': 'members',
      'body.company_id': 'companies',
      'query.company_id': 'companies',
      'body.contact_id': 'contacts',
      'query.contact_id': 'contacts',
      'body.deal_id': 'deals',
      'query.deal_id': 'deals',
      'body.conversation_id': 'conversations',
      'query.conversation_id': 'conversations',
      'body.employee_id': 'employees',
      'query.employee_id': 'employees',
      'body.manager_id': 'employees',
      'query.manager_id': 'employees',
      'body.url': 'webhookUrls',
      'body.check_in': 'checkIns',
      'body.check_out': 'checkOuts',
    },
    operations: {
      ...Object.fromEntries(Object.entries(perOperation).map(([op, name]) => [op, { 'path.id': name }])),
      ...Object.fromEntries(
        aliceDeliveryOperations.map((op) => [op, { 'path.id': 'aliceWebhooks', 'path.delivery_id': 'aliceDeliveries' }]),
      ),
      // Mostly seeded values: a made-up employee or a generated (mostly future) instant is refused with 400.
      createAttendance: {
        'body.employee_id': { dictionary: 'attendanceEmployees', probability: 0.9 },
        'body.check_in': { dictionary: 'checkIns', probability: 0.9 },
        'body.check_out': { dictionary: 'checkOuts', probability: 0.9 },
      },
    },
    // Cases that would disable or delete the suite's webhook (ids reused from earlier answers) are not sent (hooks.py).
    protect: {
      disableWebhook: [{ id: [webhook] }],
      deleteWebhook: [{ id: [webhook] }],
      disableWorkspaceWebhook: [{ id: aliceWebhooks }],
      deleteWorkspaceWebhook: [{ id: aliceWebhooks }],
    },
    coverage: {
      parameters: {
        'path.workspace_id': aliceWorkspace,
        'path.key_id': aliceKeyIds[0],
        'query.key_id': aliceKeyIds[0],
        'path.delivery_id': delivery,
        'body.owner_id': bob,
        'body.assignee_id': bob,
        'body.author_id': bob,
        'body.decided_by': bob,
        'body.requested_by': bob,
        'body.approver_ids[*]': [carol, bob],
        'body.approver_id': carol,
        'body.company_id': companies[0],
        'body.contact_id': contacts[0],
        'body.deal_id': deals[0],
        'body.conversation_id': conversations[0],
        'body.employee_id': employees[0],
        'body.manager_id': employees[0],
        'body.url': 'https://hooks.example.invalid/in',
        'body.check_in': '2019-03-04T08:00:00Z',
        'body.check_out': '2022-03-04T17:00:00Z',
      },
      operations: {
        ...Object.fromEntries(
          Object.entries(perOperation).map(([op, name]) => [op, { 'path.id': name === 'webhooks' ? webhook : first(name) }]),
        ),
        ...Object.fromEntries(
          aliceDeliveryOperations.map((op) => [op, { 'path.id': aliceWebhooks[0], 'path.delivery_id': aliceDeliveries[0] }]),
        ),
        // An employee cannot be its own manager.
        updateEmployee: { 'path.id': changeableEmployees[0], 'body.manager_id': employees[0] },
        createAttendance: { 'body.employee_id': attendanceEmployees[0] },
      },
    },
  };
}
