// One store, two conventions: a conversation opened with a svc_ key (workspace API) is served to a partner key at
// /api/v1/inbox, and the partner key's actions on it (assign, close, reopen, reply) reach a webhook subscriber as
// the catalogue's events, signed and with the workspace API's data shapes, through the same outbox and engine.
import { randomUUID } from 'node:crypto';
import { keyHeaders } from '../../helpers/partner-expect.js';
import { call, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';
import { verifyWebhook } from '../../../sdk/workspace/src/index.js';
import { newSecret } from '../../../src/partner/api-keys/secret.js';
import { newId } from '../../../src/platform/ids.js';
import { eventRequestsTo } from '../../helpers/received.js';

let rig: WebhookRig;
let platform: TestPlatform;
let ws: SvcWorkspace;

beforeAll(async () => {
  rig = await webhookRig();
  platform = rig.platform;
  ws = await svcWorkspace(platform);
});
afterAll(async () => {
  await rig?.stop();
});

async function partnerKey(scopes: string[]): Promise<string> {
  const secret = newSecret('live');
  await platform.db.query(
    `insert into api_keys (id, workspace_id, name, prefix, key_hash, environment, scopes, status, created_by) values ($1, $2, 'k', $3, $4, 'live', $5, 'active', $6)`,
    [newId(), ws.id, secret.prefix, secret.hash, scopes, ws.owner.id],
  );
  return secret.key;
}

const partner = (method: string, path: string, key: string, body?: unknown) =>
  call(platform.partnerUrl, method, path, {
    headers: keyHeaders(key, method === 'GET' ? undefined : randomUUID()),
    ...(body !== undefined ? { body } : {}),
  });

test('a webhook subscriber receives conversation.assigned, closed, reopened and message.sent from partner actions', async () => {
  const key = await partnerKey(['conversations:*', 'messages:*', 'webhooks:manage']);
  const events = ['message.sent', 'conversation.assigned', 'conversation.closed', 'conversation.reopened'];
  const hook = await partner('POST', '/api/v1/webhooks', key, { name: 'Inbox feed', url: `${rig.receiver.origin}/inbox`, events });
  expect(hook.status).toBe(201);

  // Opened through the workspace API; the partner key sees the same record.
  const svcKey = (await ws.key(['inbox.conversations.create', 'inbox.conversations.read'])).key;
  const opened = await svc(platform, svcKey, 'POST', '/api/v1/conversations', {
    channel: 'email',
    subject: 'Refund',
    customer_handle: 'ada@example.com',
  });
  expect(opened.status).toBe(201);
  const id = opened.body.id;
  expect((await partner('GET', `/api/v1/inbox/conversations/${id}`, key)).body).toMatchObject({
    object: 'inbox.conversation',
    id,
    subject: 'Refund',
    status: 'open',
  });

  const agent = await ws.member('staff');
  expect((await partner('PATCH', `/api/v1/inbox/conversations/${id}`, key, { assignee_id: agent.id })).status).toBe(200);
  const reply = await partner('POST', `/api/v1/inbox/conversations/${id}/messages`, key, { text: 'Refund issued.', author_id: agent.id });
  expect(reply.status).toBe(201);
  expect((await partner('PATCH', `/api/v1/inbox/conversations/${id}`, key, { status: 'closed' })).status).toBe(200);
  expect((await partner('PATCH', `/api/v1/inbox/conversations/${id}`, key, { status: 'open' })).status).toBe(200);

  const path = '/inbox';
  const received = () => eventRequestsTo(rig.receiver.received, path);
  await rig.receiver.waitFor(() => received().length >= 4, 20_000);
  const bodies = [];
  for (const r of received()) {
    const verified = await verifyWebhook({ rawBody: r.body, headers: r.headers, secret: hook.body.secret });
    bodies.push(verified.envelope as any);
  }
  expect(bodies.map((b) => b.event).sort()).toEqual([...events].sort());
  const byEvent = Object.fromEntries(bodies.map((b) => [b.event, b]));
  expect(byEvent['conversation.assigned']).toMatchObject({
    workspace_id: ws.id,
    data: { id, assignee_id: agent.id },
    changes: { assignee_id: { from: null, to: agent.id } },
  });
  expect(byEvent['conversation.closed']).toMatchObject({
    data: { id, status: 'closed' },
    changes: { status: { from: 'open', to: 'closed' } },
  });
  expect(byEvent['conversation.reopened']).toMatchObject({ data: { id, status: 'open', closed_at: null } });
  // The data is the workspace API's message, the same whichever API sent it.
  expect(byEvent['message.sent'].data).toEqual({
    id: reply.body.id,
    conversation_id: id,
    direction: 'outbound',
    text: 'Refund issued.',
    author_id: agent.id,
    created_at: reply.body.created_at,
  });

  // The workspace API reads the partner key's changes.
  const viaSvc = await svc(platform, svcKey, 'GET', `/api/v1/conversations/${id}`);
  expect(viaSvc.body).toMatchObject({ id, status: 'open', assignee_id: agent.id, last_message_at: reply.body.created_at });
});
