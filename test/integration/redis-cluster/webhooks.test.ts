// Workspace webhooks on a Redis Cluster: an event reaches a real HTTPS receiver signed, through the delivery queue's
// delayed jobs on the cluster; a receiver's 503 is retried on the schedule until it answers. Two nodes share the
// cluster, and only the second runs the workers: the event written through the first is delivered by the second.
import { createHmac } from 'node:crypto';
import { emitEvent, eventually, requestsOf, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';
import { svcWorkspace } from '../../support/workspace.js';
import { clusterInfra, type ClusterInfra } from './support.js';
import type { Responder } from '../../support/webhook-receiver.js';

let infra: ClusterInfra;
let rig: WebhookRig;

beforeAll(async () => {
  infra = await clusterInfra();
  rig = await webhookRig({}, { databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, services: ['workspace', 'partner'] });
  // The second node, the only one with workers (rig.stop stops it).
  await rig.node({ databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, services: ['workers'] });
});
afterAll(async () => {
  await rig?.stop();
  await infra?.stop();
});

/** A responder that answers the first n event requests 503 busy and everything else (pings too) 200. */
function busyFor(n: number): Responder {
  let failures = n;
  return (r) => {
    if (r.headers['x-svc-event'] === 'ping' || failures <= 0) return { status: 200, body: 'ok' };
    failures--;
    return { status: 503, body: 'busy' };
  };
}

/** The webhook's (first, non-ping) delivery once it has succeeded, undefined until then. */
async function succeededDelivery(webhookId: string): Promise<{ status: string; attempt_count: number } | undefined> {
  const { rows } = await rig.platform.db.query<{ status: string; attempt_count: number }>(
    "select status, attempt_count from webhook_deliveries where webhook_id = $1 and kind <> 'ping'",
    [webhookId],
  );
  return rows[0]?.status === 'succeeded' ? rows[0] : undefined;
}

test('an event is delivered signed, and a 503 is retried until the receiver takes it', async () => {
  const platform = rig.platform;
  const ws = await svcWorkspace(platform);
  const key = (await ws.key(['webhook.*'])).key;
  rig.receiver.respond(busyFor(1));
  const created = await svc(platform, key, 'POST', '/api/v1/webhooks', {
    name: 'cluster',
    url: `${rig.receiver.origin}/cluster`,
    events: ['lead.created'],
  });
  expect(created.status).toBe(201);
  const envelope = await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.created' });

  const row = await eventually(() => succeededDelivery(created.body.id), 30_000, 'a succeeded delivery');
  expect(row.attempt_count).toBe(2);
  const requests = requestsOf(rig.receiver, envelope.id);
  expect(requests.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2']);
  const last = requests[1]!;
  expect(JSON.parse(last.body.toString('utf8'))).toEqual(envelope);
  expect(last.headers['x-svc-signature']).toBe(`sha256=${createHmac('sha256', created.body.secret).update(last.body).digest('hex')}`);
  // The attempts went through the delivery queue's keys on the cluster, under its own hash tag.
  expect((await infra.keys('{webhook-deliveries}:*')).length).toBeGreaterThan(0);
});
