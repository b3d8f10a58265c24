// The webhook pages call the workspace API's Owner/Admin surface (/api/v1/workspaces/{id}/webhooks) with the signed-in
// user's token: no service key is made for them. This adapter gives the pages the calls they make, in the shape of
// the key surface's, bound to one workspace and one environment (lists and creation take the environment; a webhook
// by id is found whatever its environment).
import type { WorkspaceAdminClient, WorkspaceClient } from '@chat-platform/workspace-sdk';

export type WebhookEnvironment = 'live' | 'test';

type Used =
  | 'listWebhooks'
  | 'createWebhook'
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

export type WebhookClient = Pick<WorkspaceClient, Used>;

type Args<K extends Used> = Parameters<WorkspaceClient[K]>[0];

export function webhookClient(admin: WorkspaceAdminClient, workspaceId: string, environment: WebhookEnvironment): WebhookClient {
  const ws = { workspace_id: workspaceId };
  const one = (args: { path: { id: string } }) => ({ path: { ...ws, id: args.path.id } });
  return {
    listWebhooks: (args?: Args<'listWebhooks'>) => admin.listWorkspaceWebhooks({ path: ws, query: { ...args?.query, environment } }),
    createWebhook: (args: Args<'createWebhook'>) => admin.createWorkspaceWebhook({ path: ws, body: { ...args.body, environment } }),
    getWebhook: (args: Args<'getWebhook'>) => admin.getWorkspaceWebhook(one(args)),
    updateWebhook: (args: Args<'updateWebhook'>) => admin.updateWorkspaceWebhook({ ...one(args), body: args.body }),
    deleteWebhook: (args: Args<'deleteWebhook'>) => admin.deleteWorkspaceWebhook(one(args)),
    pauseWebhook: (args: Args<'pauseWebhook'>) => admin.pauseWorkspaceWebhook(one(args)),
    resumeWebhook: (args: Args<'resumeWebhook'>) => admin.resumeWorkspaceWebhook(one(args)),
    disableWebhook: (args: Args<'disableWebhook'>) => admin.disableWorkspaceWebhook(one(args)),
    testWebhook: (args: Args<'testWebhook'>) => admin.testWorkspaceWebhook({ ...one(args), body: args.body }),
    listWebhookDeliveries: (args: Args<'listWebhookDeliveries'>) =>
      admin.listWorkspaceWebhookDeliveries({ ...one(args), ...(args.query ? { query: args.query } : {}) }),
    resendWebhookDelivery: (args: Args<'resendWebhookDelivery'>) =>
      admin.resendWorkspaceWebhookDelivery({ path: { ...ws, id: args.path.id, delivery_id: args.path.delivery_id } }),
    replayWebhookDelivery: (args: Args<'replayWebhookDelivery'>) =>
      admin.replayWorkspaceWebhookDelivery({ path: { ...ws, id: args.path.id, delivery_id: args.path.delivery_id } }),
  } as WebhookClient;
}
