// Error responses as a typed exception: every method resolves to the body or throws ChatApiError, the core's
// ApiError read from the chat envelope { error: { code, message, details? }, meta: { requestId } }.
import { ApiError, headerFields, isRecord, unexpectedFields, type UNEXPECTED_RESPONSE } from '@chat-platform/sdk-core';
import type { ChatErrorCode, ErrorDetail } from './types.js';

export { UNEXPECTED_RESPONSE } from '@chat-platform/sdk-core';

/** An error response of the chat API. `message` is the server's human-readable message. */
export class ChatApiError extends ApiError<ChatErrorCode, ErrorDetail[]> {
  override readonly name = 'ChatApiError';
  /** A code of the catalogue (docs/errors.md), or unexpected_response when the body was not the chat envelope. */
  declare readonly code: ChatErrorCode | typeof UNEXPECTED_RESPONSE;
}

function isDetail(value: unknown): value is ErrorDetail {
  return isRecord(value) && typeof value.location === 'string' && typeof value.message === 'string';
}

/** Reads openapi-fetch's parsed error body (JSON when it parsed, else the text, else undefined) into the error. */
export function toChatApiError(body: unknown, response: Response): ChatApiError {
  const headers = headerFields(response);
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' && typeof body.error.message === 'string') {
    const meta = isRecord(body.meta) ? body.meta : {};
    return new ChatApiError({
      status: response.status,
      code: body.error.code as ChatErrorCode,
      message: body.error.message,
      details: Array.isArray(body.error.details) ? body.error.details.filter(isDetail) : undefined,
      requestId: typeof meta.requestId === 'string' ? meta.requestId : headers.requestId,
      retryAfter: headers.retryAfter,
      body,
      response,
    });
  }
  return new ChatApiError(unexpectedFields(body, response));
}
