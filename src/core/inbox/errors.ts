// The inbox store is shared by the workspace API (convention B) and the partner API (convention A); each passes the
// errors of its own envelope, so a refusal reads the same as every other error of that interface.
import type { AppError } from '../../platform/http/app-error.js';

export interface InboxErrorFactory {
  /** 400 naming the field. */
  invalid(field: string, message: string): AppError;
  conversationNotFound(): AppError;
  messageNotFound(): AppError;
  channelNotFound(): AppError;
  /** 409: the conversation is closed; an outbound message needs it open. */
  conversationClosed(): AppError;
}
