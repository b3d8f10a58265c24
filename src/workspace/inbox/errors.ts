// The inbox store's refusals in the workspace envelope: 400 invalid_request, 404 not_found, 409 conflict.
import type { InboxErrorFactory } from '../../core/inbox/errors.js';
import { workspaceErrors } from '../base/errors.js';

export const workspaceInboxErrors: InboxErrorFactory = {
  invalid: (field, message) => workspaceErrors.invalid(field, message),
  conversationNotFound: () => workspaceErrors.notFound('The conversation'),
  messageNotFound: () => workspaceErrors.notFound('The message'),
  channelNotFound: () => workspaceErrors.notFound('The channel'),
  conversationClosed: () => workspaceErrors.conflict('The conversation is closed; reopen it before sending.'),
};
