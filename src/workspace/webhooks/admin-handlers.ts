// Webhook administration by people (/api/v1/workspaces/{workspace_id}/webhooks): the workspace's Owner and Admin,
// with their bearer JWT, manage the same webhooks as svc_ keys do, of every environment. The role check is the one of
// key administration; errors are the webhook surface's.
import { userOf } from '../base/context.js';
import type { WorkspaceDeps } from '../base/deps.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { requireOwnerOrAdmin } from '../keys/access.js';
import type { WebhookEngine } from '../../core/webhooks/engine.js';
import { WebhookService } from '../../core/webhooks/service.js';
import { ownerOrAdminWebhooksOnly, webhookErrors } from './errors.js';
import { deliveryView, sendResultView, webhookView } from './views.js';

export type WorkspaceWebhookOperationId =
  | 'createWorkspaceWebhook'
  | 'listWorkspaceWebhooks'
  | 'getWorkspaceWebhook'
  | 'updateWorkspaceWebhook'
  | 'deleteWorkspaceWebhook'
  | 'pauseWorkspaceWebhook'
  | 'resumeWorkspaceWebhook'
  | 'disableWorkspaceWebhook'
  | 'testWorkspaceWebhook'
  | 'listWorkspaceWebhookDeliveries'
  | 'resendWorkspaceWebhookDelivery'
  | 'replayWorkspaceWebhookDelivery';

export function workspaceWebhookHandlers(
  deps: WorkspaceDeps,
  engine: WebhookEngine,
): WorkspaceFeatureHandlers<WorkspaceWebhookOperationId> {
  const service = new WebhookService(engine, webhookErrors);
  const db = deps.sql;
  /** The Owner or Admin's account id, once the role is checked. */
  const admin = async (ctx: Parameters<typeof userOf>[0], workspaceId: string): Promise<string> => {
    const caller = userOf(ctx);
    await requireOwnerOrAdmin(db, caller, workspaceId, ownerOrAdminWebhooksOnly);
    return caller.accountId;
  };
  /** The partition of a webhook of the workspace, after the role check. */
  const partitionOf = async (ctx: Parameters<typeof userOf>[0], workspaceId: string, id: string) => {
    await admin(ctx, workspaceId);
    return service.partitionOf(db, workspaceId, id);
  };
  return {
    async createWorkspaceWebhook({ params, body }, ctx) {
      const accountId = await admin(ctx, params.workspace_id);
      const { environment, ...input } = body;
      const part = { workspaceId: params.workspace_id, environment: environment ?? 'live' };
      const { webhook, secret, ping } = await service.create(db, part, { via: 'account', accountId }, input);
      return {
        status: 201,
        body: { ...webhookView(webhook), secret, ping: sendResultView(ping) },
        location: `/api/v1/workspaces/${params.workspace_id}/webhooks/${webhook.id}`,
      };
    },
    async listWorkspaceWebhooks({ params, query }, ctx) {
      await admin(ctx, params.workspace_id);
      const { environment, ...rest } = query ?? {};
      const page = await service.list(db, { workspaceId: params.workspace_id, environment: environment ?? 'live' }, rest);
      return { status: 200, body: { items: page.items.map(webhookView), next_cursor: page.nextCursor } };
    },
    async getWorkspaceWebhook({ params }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      return { status: 200, body: webhookView(await service.get(db, part, params.id)) };
    },
    async updateWorkspaceWebhook({ params, body }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      return { status: 200, body: webhookView(await service.update(db, part, params.id, body)) };
    },
    async deleteWorkspaceWebhook({ params }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      await service.delete(db, part, params.id);
      return { status: 204, body: undefined };
    },
    async pauseWorkspaceWebhook({ params }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      return { status: 200, body: webhookView(await service.pause(db, part, params.id)) };
    },
    async resumeWorkspaceWebhook({ params }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      const { value, attempts } = await service.resume(db, part, params.id);
      await engine.enqueue(attempts);
      return { status: 200, body: webhookView(value) };
    },
    async disableWorkspaceWebhook({ params }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      return { status: 200, body: webhookView(await service.disable(db, part, params.id)) };
    },
    async testWorkspaceWebhook({ params, body }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      return { status: 200, body: sendResultView(await service.test(db, part, params.id, body)) };
    },
    async listWorkspaceWebhookDeliveries({ params, query }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      const page = await service.deliveries(db, part, { ...(query ?? {}), webhookId: params.id });
      return { status: 200, body: { items: page.items.map(deliveryView), next_cursor: page.nextCursor } };
    },
    async resendWorkspaceWebhookDelivery({ params }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      const { value, attempts } = await service.resend(db, part, params.delivery_id, params.id);
      await engine.enqueue(attempts);
      return { status: 202, body: deliveryView(value) };
    },
    async replayWorkspaceWebhookDelivery({ params }, ctx) {
      const part = await partitionOf(ctx, params.workspace_id, params.id);
      const { value, attempts } = await service.replay(db, part, params.delivery_id, params.id);
      await engine.enqueue(attempts);
      return { status: 202, body: deliveryView(value) };
    },
  };
}
