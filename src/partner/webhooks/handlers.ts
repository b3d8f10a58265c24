// The partner API's /api/v1/webhooks and /api/v1/webhook-deliveries (scopes webhooks:read and webhooks:manage),
// served by the workspace API's webhook engine and tables. Writes run in their Idempotency-Key transaction
// (ctx.db), so the attempts they schedule are enqueued a little later than now, once it has committed (the
// sweeper covers a transaction slower than that).
import type { WebhookStatus } from '../../core/webhooks/rows.js';
import type { WebhookEngine } from '../../core/webhooks/engine.js';
import { WebhookService, type WebhookErrorFactory } from '../../core/webhooks/service.js';
import { keyOf, type PartnerContext } from '../base/context.js';
import type { PartnerDeps } from '../base/deps.js';
import { partnerErrors } from '../base/errors.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import { deliveryView, endpointView, sendResultView } from './views.js';

export type PartnerWebhookOperationId =
  | 'listWebhookEndpoints'
  | 'createWebhookEndpoint'
  | 'getWebhookEndpoint'
  | 'updateWebhookEndpoint'
  | 'deleteWebhookEndpoint'
  | 'pauseWebhookEndpoint'
  | 'resumeWebhookEndpoint'
  | 'disableWebhookEndpoint'
  | 'testWebhookEndpoint'
  | 'listWebhookDeliveries'
  | 'getWebhookDelivery'
  | 'resendWebhookDelivery'
  | 'replayWebhookDelivery';

const afterCommitDelayMs = 250;

const errors: WebhookErrorFactory = {
  invalid: (field, message) => partnerErrors.badInput(field, message),
  webhookNotFound: () => partnerErrors.notFound('webhook_not_found', 'The webhook endpoint'),
  deliveryNotFound: () => partnerErrors.notFound('delivery_not_found', 'The webhook delivery'),
  disabled: () => partnerErrors.conflict('webhook_disabled', 'The webhook endpoint is disabled: it can only be read, listed and deleted.'),
  inProgress: () =>
    partnerErrors.conflict('delivery_in_progress', 'The delivery is still pending, sending or held; resend it once it has ended.'),
  limitReached: (limit) =>
    partnerErrors.conflict('webhook_limit_reached', `The workspace already has ${limit} webhook endpoints in this environment.`, { limit }),
};

function partitionOf(ctx: PartnerContext) {
  const key = keyOf(ctx);
  return { workspaceId: key.workspaceId, environment: key.environment };
}

function listOf<T>(items: T[], nextCursor: string | null) {
  return { object: 'list' as const, data: items, has_more: nextCursor !== null, next_cursor: nextCursor };
}

const notServed = () => partnerErrors.notFound('not_found', 'Webhooks are not served by this listener');

export function partnerWebhookHandlers(
  deps: PartnerDeps,
  engine: WebhookEngine | undefined,
): PartnerFeatureHandlers<PartnerWebhookOperationId> {
  const service = engine ? new WebhookService(engine, errors) : undefined;
  const use = () => {
    if (!service || !engine) throw notServed();
    return { service, engine };
  };
  const delayFor = (ctx: PartnerContext) => (ctx.db === deps.sql ? 0 : afterCommitDelayMs);
  return {
    async listWebhookEndpoints({ query }, ctx) {
      const q = query ?? {};
      const page = await use().service.list(ctx.db, partitionOf(ctx), {
        ...q,
        status: q.status ? (`${q.status[0]!.toUpperCase()}${q.status.slice(1)}` as WebhookStatus) : undefined,
      });
      return { status: 200, body: listOf(page.items.map(endpointView), page.nextCursor) };
    },
    async createWebhookEndpoint({ body }, ctx) {
      const { webhook, secret, ping } = await use().service.create(
        ctx.db,
        partitionOf(ctx),
        { via: 'api_key', keyId: keyOf(ctx).keyId },
        body,
      );
      return {
        status: 201,
        body: { ...endpointView(webhook), secret, ping: sendResultView(ping) },
        location: `/api/v1/webhooks/${webhook.id}`,
      };
    },
    async getWebhookEndpoint({ params }, ctx) {
      return { status: 200, body: endpointView(await use().service.get(ctx.db, partitionOf(ctx), params.id)) };
    },
    async updateWebhookEndpoint({ params, body }, ctx) {
      return { status: 200, body: endpointView(await use().service.update(ctx.db, partitionOf(ctx), params.id, body)) };
    },
    async deleteWebhookEndpoint({ params }, ctx) {
      await use().service.delete(ctx.db, partitionOf(ctx), params.id);
      return { status: 200, body: { object: 'webhook_endpoint', id: params.id, deleted: true } };
    },
    async pauseWebhookEndpoint({ params }, ctx) {
      return { status: 200, body: endpointView(await use().service.pause(ctx.db, partitionOf(ctx), params.id)) };
    },
    async resumeWebhookEndpoint({ params }, ctx) {
      const { service: s, engine: e } = use();
      const { value, attempts } = await s.resume(ctx.db, partitionOf(ctx), params.id);
      await e.enqueue(attempts, delayFor(ctx));
      return { status: 200, body: endpointView(value) };
    },
    async disableWebhookEndpoint({ params }, ctx) {
      return { status: 200, body: endpointView(await use().service.disable(ctx.db, partitionOf(ctx), params.id)) };
    },
    async testWebhookEndpoint({ params, body }, ctx) {
      return { status: 200, body: sendResultView(await use().service.test(ctx.db, partitionOf(ctx), params.id, body)) };
    },
    async listWebhookDeliveries({ query }, ctx) {
      const q = query ?? {};
      const page = await use().service.deliveries(ctx.db, partitionOf(ctx), {
        limit: q.limit,
        cursor: q.cursor,
        status: q.status,
        webhookId: q.webhook_id,
      });
      return { status: 200, body: listOf(page.items.map(deliveryView), page.nextCursor) };
    },
    async getWebhookDelivery({ params }, ctx) {
      return { status: 200, body: deliveryView(await use().service.delivery(ctx.db, partitionOf(ctx), params.id)) };
    },
    async resendWebhookDelivery({ params }, ctx) {
      const { service: s, engine: e } = use();
      const { value, attempts } = await s.resend(ctx.db, partitionOf(ctx), params.id);
      await e.enqueue(attempts, delayFor(ctx));
      return { status: 202, body: deliveryView(value) };
    },
    async replayWebhookDelivery({ params }, ctx) {
      const { service: s, engine: e } = use();
      const { value, attempts } = await s.replay(ctx.db, partitionOf(ctx), params.id);
      await e.enqueue(attempts, delayFor(ctx));
      return { status: 202, body: deliveryView(value) };
    },
  };
}
