// The inbox store's refusals in convention A's envelope, with a not-found code per object.
import type { InboxErrorFactory } from '../../core/inbox/errors.js';
import { partnerErrors } from '../base/errors.js';

export const partnerInboxErrors: InboxErrorFactory = {
  invalid: (field, message) => partnerErrors.badInput(field, message),
  conversationNotFound: () => partnerErrors.notFound('conversation_not_found', 'The conversation'),
  messageNotFound: () => partnerErrors.notFound('message_not_found', 'The message'),
  channelNotFound: () => partnerErrors.notFound('channel_not_found', 'The channel'),
  conversationClosed: () =>
    partnerErrors.conflict('conversation_closed', 'The conversation is closed; reopen it (PATCH status open) before sending.'),
};
