// /api/v1/webhooks of the workspace API: typed in, one service call, the view out. Writes run on the pool
// (autocommit), so their attempts are enqueued right after.
import { keyOf, type WorkspaceContext } from '../base/context.js';
import type { WorkspaceDeps } from '../base/deps.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import type { WebhookEngine } from '../../core/webhooks/engine.js';
import type { WebhookPartition } from '../../core/webhooks/rows.js';
import { WebhookService } from '../../core/webhooks/service.js';
import { webhookErrors } from './errors.js';
import { deliveryView, sendResultView, webhookView } from './views.js';

export type WebhookOperationId =
  | 'createWebhook'
  | 'listWebhooks'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'pauseWebhook'
  | 'resumeWebhook'
  | 'disableWebhook'
  | 'testWebhook'
  | 'listWebhookDeliveries'
  | 'resendWebhookDelivery'
  | 'replayWebhookDelivery';

export const webhooksPath = '/api/v1/webhooks';

function partitionOf(ctx: WorkspaceContext): WebhookPartition {
  const key = keyOf(ctx);
  return { workspaceId: key.workspaceId, environment: key.environment };
}

export function webhookHandlers(deps: WorkspaceDeps, engine: WebhookEngine): WorkspaceFeatureHandlers<WebhookOperationId> {
  const service = new WebhookService(engine, webhookErrors);
  const db = deps.sql;
  return {
    async createWebhook({ body }, ctx) {
      const { webhook, secret, ping } = await service.create(db, partitionOf(ctx), { via: 'svc_key', keyId: keyOf(ctx).keyId }, body);
      return {
        status: 201,
        body: { ...webhookView(webhook), secret, ping: sendResultView(ping) },
        location: `${webhooksPath}/${webhook.id}`,
      };
    },
    async listWebhooks({ query }, ctx) {
      const page = await service.list(db, partitionOf(ctx), query ?? {});
      return { status: 200, body: { items: page.items.map(webhookView), next_cursor: page.nextCursor } };
    },
    async getWebhook({ params }, ctx) {
      return { status: 200, body: webhookView(await service.get(db, partitionOf(ctx), params.id)) };
    },
    async updateWebhook({ params, body }, ctx) {
      return { status: 200, body: webhookView(await service.update(db, partitionOf(ctx), params.id, body)) };
    },
    async deleteWebhook({ params }, ctx) {
      await service.delete(db, partitionOf(ctx), params.id);
      return { status: 204, body: undefined };
    },
    async pauseWebhook({ params }, ctx) {
      return { status: 200, body: webhookView(await service.pause(db, partitionOf(ctx), params.id)) };
    },
    async resumeWebhook({ params }, ctx) {
      const { value, attempts } = await service.resume(db, partitionOf(ctx), params.id);
      await engine.enqueue(attempts);
      return { status: 200, body: webhookView(value) };
    },
    async disableWebhook({ params }, ctx) {
      return { status: 200, body: webhookView(await service.disable(db, partitionOf(ctx), params.id)) };
    },
    async testWebhook({ params, body }, ctx) {
      return { status: 200, body: sendResultView(await service.test(db, partitionOf(ctx), params.id, body)) };
    },
    async listWebhookDeliveries({ params, query }, ctx) {
      const part = partitionOf(ctx);
      await service.get(db, part, params.id);
      const page = await service.deliveries(db, part, { ...(query ?? {}), webhookId: params.id });
      return { status: 200, body: { items: page.items.map(deliveryView), next_cursor: page.nextCursor } };
    },
    async resendWebhookDelivery({ params }, ctx) {
      const part = partitionOf(ctx);
      await service.get(db, part, params.id);
      const { value, attempts } = await service.resend(db, part, params.delivery_id, params.id);
      await engine.enqueue(attempts);
      return { status: 202, body: deliveryView(value) };
    },
    async replayWebhookDelivery({ params }, ctx) {
      const part = partitionOf(ctx);
      await service.get(db, part, params.id);
      const { value, attempts } = await service.replay(db, part, params.delivery_id, params.id);
      await engine.enqueue(attempts);
      return { status: 202, body: deliveryView(value) };
    },
  };
}
