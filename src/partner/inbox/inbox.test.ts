// The partner inbox over the real listener with real API keys: conversations (list, get, assign, close, reopen),
// messages (per conversation and overall, outbound replies), connected channels, partitioning by workspace and
// environment, Idempotency-Key repeats, cursors, and every scope of the inbox table enforced.
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../platform/clock.js';
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { insertConversation } from '../../../test/support/inbox.js';
import { expectPartnerError, keyHeaders } from '../../../test/helpers/partner-expect.js';
import { loadSpecification } from '../../platform/http/specification.js';
import { isKnownScope } from '../scopes/catalogue.js';

const inbox = '/api/v1/inbox';
const clock = new ManualClock(new Date('2026-11-25T09:00:00.000Z'));
const everyInboxScope = ['conversations:*', 'messages:*', 'channels:*'];

let platform: TestPlatform;
let ws: TestWorkspace;
let otherWs: TestWorkspace;
let full: string;

const req = (method: string, path: string, key: string, body?: unknown, idempotencyKey?: string) =>
  call(platform.partnerUrl, method, `${inbox}${path}`, {
    headers: keyHeaders(key, method === 'GET' ? undefined : (idempotencyKey ?? randomUUID())),
    ...(body !== undefined ? { body } : {}),
  });

function expectStatus(res: { status: number; body: unknown }, status: number): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}

async function member(): Promise<string> {
  const account = await (await platform.tenant()).account();
  await platform.db.query("insert into workspace_members (workspace_id, account_id, role) values ($1, $2, 'staff')", [ws.id, account.id]);
  return account.id;
}

const events = async (workspaceId: string) =>
  (
    await platform.db.query(
      "select payload->'envelope'->>'event' as event from outbox where topic = 'svc.event' and payload->'envelope'->>'workspace_id' = $1 order by id",
      [workspaceId],
    )
  ).rows.map((r: { event: string }) => r.event);

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] }, clock);
  ws = await testWorkspace(platform);
  otherWs = await testWorkspace(platform);
  full = (await ws.key(everyInboxScope)).key;
});
afterAll(async () => {
  await platform?.stop();
});

describe('conversations', () => {
  test('list newest first with filters, cursors bound to the list; get; another workspace or environment sees none of them', async () => {
    const older = await insertConversation(platform.db, { workspaceId: ws.id, channel: 'email' });
    const newer = await insertConversation(platform.db, {
      workspaceId: ws.id,
      channel: 'whatsapp',
      status: 'closed',
      closedAt: new Date(),
    });
    await insertConversation(platform.db, { workspaceId: ws.id, environment: 'test' });
    await insertConversation(platform.db, { workspaceId: otherWs.id });

    const first = await req('GET', '/conversations?limit=1', full);
    expectStatus(first, 200);
    expect(first.body).toEqual({
      object: 'list',
      data: [expect.objectContaining({ object: 'inbox.conversation', id: newer, channel: 'whatsapp', status: 'closed' })],
      has_more: true,
      next_cursor: expect.any(String),
    });
    const second = await req('GET', `/conversations?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`, full);
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual([older]);
    expect(second.body.has_more).toBe(false);
    expect(second.body.next_cursor).toBeNull();

    const open = await req('GET', '/conversations?status=open&channel=email', full);
    expect(open.body.data.map((c: { id: string }) => c.id)).toEqual([older]);

    const got = await req('GET', `/conversations/${older}`, full);
    expect(got.body).toEqual({
      object: 'inbox.conversation',
      id: older,
      channel: 'email',
      subject: 'Order question',
      contact_id: null,
      customer_handle: 'customer@example.com',
      status: 'open',
      assignee_id: null,
      last_message_at: null,
      first_response_at: null,
      closed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    // A messages cursor does not page conversations.
    await insertConversation(platform.db, { workspaceId: ws.id, inbound: ['a', 'b'] });
    const foreign = await req('GET', '/messages?limit=1', full);
    expectPartnerError(await req('GET', `/conversations?cursor=${encodeURIComponent(foreign.body.next_cursor)}`, full), 400, 'bad_input', {
      field: 'query.cursor',
    });

    const otherKey = (await otherWs.key(['conversations:read'])).key;
    expectPartnerError(await req('GET', `/conversations/${older}`, otherKey), 404, 'conversation_not_found');
    const testKey = (await ws.key(['conversations:read'], { environment: 'test' })).key;
    expectPartnerError(await req('GET', `/conversations/${older}`, testKey), 404, 'conversation_not_found');
  });

  test('PATCH assigns to a member, closes and reopens, with one event per real change; the same Idempotency-Key answers the first result', async () => {
    const id = await insertConversation(platform.db, { workspaceId: ws.id });
    const agent = await member();
    const before = (await events(ws.id)).length;

    const idem = randomUUID();
    const assigned = await req('PATCH', `/conversations/${id}`, full, { assignee_id: agent, status: 'closed' }, idem);
    expectStatus(assigned, 200);
    expect(assigned.body).toMatchObject({ id, assignee_id: agent, status: 'closed', closed_at: clock.now().toISOString() });
    const repeated = await req('PATCH', `/conversations/${id}`, full, { assignee_id: agent, status: 'closed' }, idem);
    expect(repeated.body).toEqual(assigned.body);
    expectPartnerError(await req('PATCH', `/conversations/${id}`, full, { status: 'open' }, idem), 409, 'idempotency_conflict');

    // Nothing to change: no event.
    expect((await req('PATCH', `/conversations/${id}`, full, { status: 'closed' })).body.status).toBe('closed');
    const reopened = await req('PATCH', `/conversations/${id}`, full, { status: 'open', assignee_id: null });
    expect(reopened.body).toMatchObject({ status: 'open', closed_at: null, assignee_id: null });
    expect((await events(ws.id)).slice(before)).toEqual([
      'conversation.assigned',
      'conversation.closed',
      'conversation.assigned',
      'conversation.reopened',
    ]);
  });

  test("bad input changes nothing: a non-member assignee, an unknown field or status, another workspace's conversation", async () => {
    const id = await insertConversation(platform.db, { workspaceId: ws.id });
    const outsider = await (await platform.tenant()).account();
    const before = (await events(ws.id)).length;
    expectPartnerError(await req('PATCH', `/conversations/${id}`, full, { assignee_id: outsider.id, status: 'closed' }), 400, 'bad_input', {
      field: 'body.assignee_id',
    });
    expectPartnerError(await req('PATCH', `/conversations/${id}`, full, { status: 'archived' }), 400, 'bad_input');
    expectPartnerError(await req('PATCH', `/conversations/${id}`, full, { subject: 'x' }), 400, 'bad_input');
    expectPartnerError(await req('PATCH', `/conversations/${randomUUID()}`, full, { status: 'closed' }), 404, 'conversation_not_found');
    expect((await req('GET', `/conversations/${id}`, full)).body).toMatchObject({ status: 'open', assignee_id: null });
    expect((await events(ws.id)).length).toBe(before);
  });
});

describe('messages', () => {
  test('an outbound reply: 201 with Location, message.sent, first_response_at stamped once; listed per conversation and overall', async () => {
    const id = await insertConversation(platform.db, { workspaceId: ws.id, inbound: ['Where is my order?'] });
    const agent = await member();
    const before = (await events(ws.id)).length;
    const sent = await req('POST', `/conversations/${id}/messages`, full, { text: '  On its way.  ', author_id: agent });
    expectStatus(sent, 201);
    expect(sent.body).toEqual({
      object: 'inbox.message',
      id: expect.any(String),
      conversation_id: id,
      direction: 'outbound',
      text: 'On its way.',
      author_id: agent,
      created_at: clock.now().toISOString(),
    });
    expect(sent.headers.get('location')).toBe(`${inbox}/messages/${sent.body.id}`);
    const firstResponse = clock.now().toISOString();
    clock.advance(60_000);
    await req('POST', `/conversations/${id}/messages`, full, { text: 'Tracking: 123' });
    expect((await req('GET', `/conversations/${id}`, full)).body).toMatchObject({
      first_response_at: firstResponse,
      last_message_at: clock.now().toISOString(),
    });
    expect((await events(ws.id)).slice(before)).toEqual(['message.sent', 'message.sent']);

    const thread = await req('GET', `/conversations/${id}/messages?limit=2`, full);
    expect(thread.body.data.map((m: { text: string }) => m.text)).toEqual(['Tracking: 123', 'On its way.']);
    expect(thread.body.has_more).toBe(true);
    const rest = await req('GET', `/conversations/${id}/messages?cursor=${encodeURIComponent(thread.body.next_cursor)}`, full);
    expect(rest.body.data.map((m: { direction: string }) => m.direction)).toEqual(['inbound']);
    const inbound = await req('GET', `/messages?conversation_id=${id}&direction=inbound`, full);
    expect(inbound.body.data).toEqual([expect.objectContaining({ text: 'Where is my order?', author_id: null })]);
    expect((await req('GET', `/messages/${sent.body.id}`, full)).body).toEqual(sent.body);
    // A thread's cursor opens only that thread.
    const other = await insertConversation(platform.db, { workspaceId: ws.id });
    expectPartnerError(
      await req('GET', `/conversations/${other}/messages?cursor=${encodeURIComponent(thread.body.next_cursor)}`, full),
      400,
      'bad_input',
      { field: 'query.cursor' },
    );
  });

  test('a closed conversation refuses a reply (409 conversation_closed); unknown conversation 404; a non-member author 400; nothing is written', async () => {
    const closed = await insertConversation(platform.db, { workspaceId: ws.id, status: 'closed', closedAt: new Date() });
    const outsider = await (await platform.tenant()).account();
    const count = async () =>
      Number((await platform.db.query('select count(*) as n from inbox_messages where workspace_id = $1', [ws.id])).rows[0].n);
    const before = await count();
    expectPartnerError(await req('POST', `/conversations/${closed}/messages`, full, { text: 'hello' }), 409, 'conversation_closed');
    expectPartnerError(
      await req('POST', `/conversations/${randomUUID()}/messages`, full, { text: 'hello' }),
      404,
      'conversation_not_found',
    );
    const open = await insertConversation(platform.db, { workspaceId: ws.id });
    expectPartnerError(
      await req('POST', `/conversations/${open}/messages`, full, { text: 'hello', author_id: outsider.id }),
      400,
      'bad_input',
      { field: 'body.author_id' },
    );
    expectPartnerError(await req('POST', `/conversations/${open}/messages`, full, { text: '   ' }), 400, 'bad_input');
    expectPartnerError(await req('POST', `/conversations/${open}/messages`, full, { text: 'x', direction: 'inbound' }), 400, 'bad_input');
    expectPartnerError(await req('GET', `/conversations/${randomUUID()}/messages`, full), 404, 'conversation_not_found');
    expectPartnerError(await req('GET', `/messages/${randomUUID()}`, full), 404, 'message_not_found');
    expect(await count()).toBe(before);
  });
});

describe('channels', () => {
  test('create, list, get, rename, pause and delete; the kind is fixed; another environment sees none of them', async () => {
    const created = await req('POST', '/channels', full, { kind: 'whatsapp', name: ' Support line ' });
    expectStatus(created, 201);
    expect(created.body).toEqual({
      object: 'inbox.channel',
      id: expect.any(String),
      kind: 'whatsapp',
      name: 'Support line',
      status: 'active',
      created_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
    });
    expect(created.headers.get('location')).toBe(`${inbox}/channels/${created.body.id}`);
    const id = created.body.id;
    clock.advance(1000);
    const paused = await req('PATCH', `/channels/${id}`, full, { status: 'paused', name: 'Support' });
    expect(paused.body).toMatchObject({ id, kind: 'whatsapp', name: 'Support', status: 'paused', updated_at: clock.now().toISOString() });
    expectPartnerError(await req('PATCH', `/channels/${id}`, full, { kind: 'email' }), 400, 'bad_input');
    expect((await req('GET', `/channels?status=paused`, full)).body.data.map((c: { id: string }) => c.id)).toContain(id);
    expect((await req('GET', `/channels/${id}`, full)).body).toEqual(paused.body);

    const testKey = (await ws.key(['channels:read'], { environment: 'test' })).key;
    expect((await req('GET', '/channels', testKey)).body.data).toEqual([]);
    expectPartnerError(await req('GET', `/channels/${id}`, testKey), 404, 'channel_not_found');

    const deleted = await req('DELETE', `/channels/${id}`, full);
    expect(deleted.body).toEqual({ object: 'inbox.channel', id, deleted: true });
    expectPartnerError(await req('GET', `/channels/${id}`, full), 404, 'channel_not_found');
    expectPartnerError(await req('DELETE', `/channels/${id}`, full), 404, 'channel_not_found');
    expectPartnerError(await req('POST', '/channels', full, { kind: 'telex', name: 'x' }), 400, 'bad_input');
    expectPartnerError(await req('POST', '/channels', full, { kind: 'email', name: '   ' }), 400, 'bad_input');
  });

  test('a dev_ key has an inbox of its own', async () => {
    const dev = (await ws.key(['channels:*'], { environment: 'dev' })).key;
    const created = await req('POST', '/channels', dev, { kind: 'email', name: 'Sandbox' });
    expectStatus(created, 201);
    expect((await req('GET', '/channels', dev)).body.data.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
    expectPartnerError(await req('GET', `/channels/${created.body.id}`, full), 404, 'channel_not_found');
  });
});

/** Every operation under /api/v1/inbox and /api/v1/reports with the scope it names (null for none). */
async function inboxAndReportScopes(): Promise<Array<{ op: string; scope: string | null }>> {
  const spec = (await loadSpecification('partner')) as {
    paths: Record<string, Record<string, { operationId: string; 'x-required-scope'?: string }>>;
  };
  return Object.entries(spec.paths)
    .filter(([path]) => path.startsWith(`${inbox}/`) || path.startsWith('/api/v1/reports/'))
    .flatMap(([, item]) => Object.values(item).map((op) => ({ op: op.operationId, scope: op['x-required-scope'] ?? null })));
}

/** Whether a scope is named and in the catalogue. */
const knownScope = (scope: string | null): boolean => scope !== null && isKnownScope(scope);

describe('scopes', () => {
  test('every operation under /api/v1/inbox and /api/v1/reports names a scope of the catalogue', async () => {
    const named = await inboxAndReportScopes();
    expect(named.length).toBeGreaterThanOrEqual(13);
    for (const { op, scope } of named) expect({ op, known: knownScope(scope) }).toEqual({ op, known: true });
  });

  // Each operation with the scope it needs, a request it accepts, and the status of that request.
  const operations: Array<{
    scope: string;
    call: (key: string, conversation: string, channel: string) => Promise<{ status: number; body: any; headers: Headers }>;
    ok: number;
  }> = [
    { scope: 'conversations:read', call: (k) => req('GET', '/conversations', k), ok: 200 },
    { scope: 'conversations:read', call: (k, c) => req('GET', `/conversations/${c}`, k), ok: 200 },
    { scope: 'conversations:write', call: (k, c) => req('PATCH', `/conversations/${c}`, k, { status: 'open' }), ok: 200 },
    { scope: 'messages:read', call: (k, c) => req('GET', `/conversations/${c}/messages`, k), ok: 200 },
    { scope: 'messages:read', call: (k) => req('GET', '/messages', k), ok: 200 },
    { scope: 'messages:send', call: (k, c) => req('POST', `/conversations/${c}/messages`, k, { text: 'hi' }), ok: 201 },
    { scope: 'channels:read', call: (k) => req('GET', '/channels', k), ok: 200 },
    { scope: 'channels:read', call: (k, _c, ch) => req('GET', `/channels/${ch}`, k), ok: 200 },
    { scope: 'channels:manage', call: (k) => req('POST', '/channels', k, { kind: 'sms', name: 'SMS' }), ok: 201 },
    { scope: 'channels:manage', call: (k, _c, ch) => req('PATCH', `/channels/${ch}`, k, { name: 'Renamed' }), ok: 200 },
  ];

  test('every operation needs its scope (403 scope_required naming it) and passes with it or with group:*', async () => {
    const conversation = await insertConversation(platform.db, { workspaceId: ws.id });
    const channel = (await req('POST', '/channels', full, { kind: 'email', name: 'Mail' })).body.id;
    const everyOther = (scope: string) =>
      [
        'conversations:read',
        'conversations:write',
        'messages:read',
        'messages:send',
        'channels:read',
        'channels:manage',
        'crm_leads:*',
      ].filter((s) => s !== scope);
    for (const op of operations) {
      const without = (await ws.key(everyOther(op.scope))).key;
      expectPartnerError(await op.call(without, conversation, channel), 403, 'scope_required', { scope: op.scope });
      const exact = (await ws.key([op.scope])).key;
      expectStatus(await op.call(exact, conversation, channel), op.ok);
      const star = (await ws.key([`${op.scope.split(':')[0]}:*`])).key;
      expectStatus(await op.call(star, conversation, channel), op.ok);
    }
    const without = (await ws.key(everyOther('channels:manage'))).key;
    expectPartnerError(await req('DELETE', `/channels/${channel}`, without), 403, 'scope_required', { scope: 'channels:manage' });
    expect((await req('GET', `/channels/${channel}`, full)).status).toBe(200);
  });
});
