// The webhook errors of the workspace API, in its envelope: shared by the key surface and the Owner/Admin surface.
import type { WebhookErrorFactory } from '../../core/webhooks/service.js';
import { WorkspaceAppError, workspaceErrors } from '../base/errors.js';

export const webhookErrors: WebhookErrorFactory = {
  invalid: (field, message) => workspaceErrors.invalid(field, message),
  webhookNotFound: () => workspaceErrors.notFound('The webhook'),
  deliveryNotFound: () => workspaceErrors.notFound('The delivery'),
  disabled: () => new WorkspaceAppError(409, 'conflict', 'The webhook is Disabled: it can only be read, listed and deleted.'),
  inProgress: () => new WorkspaceAppError(409, 'conflict', 'The delivery is still pending, sending or held; resend it once it has ended.'),
  limitReached: (limit) =>
    new WorkspaceAppError(409, 'conflict', `The workspace already has ${limit} webhooks in this environment; delete one first.`),
};

/** 403 to a member who is not the workspace's Owner or Admin. */
export const ownerOrAdminWebhooksOnly = () =>
  new WorkspaceAppError(403, 'forbidden', "Only the workspace's Owner and Admin manage its webhooks.");
