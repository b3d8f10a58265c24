// Error answers as a typed exception: every method resolves to the answer's result or throws BotApiError, the core's
// ApiError read from the Bot API envelope { ok: false, error_code, description, parameters? }.
import { ApiError, headerFields, isRecord, unexpectedFields } from '@chat-platform/sdk-core';
import type { ResponseParameters } from './types.js';

export { UNEXPECTED_RESPONSE } from '@chat-platform/sdk-core';

/** A Bot API error. `code` is the description's prefix in snake case (bad_request, unauthorized, conflict, ...). */
export class BotApiError extends ApiError<string, ResponseParameters> {
  override readonly name = 'BotApiError';
  /** Telegram's error_code (the HTTP status). */
  get errorCode(): number {
    return this.status;
  }
  /** Telegram's description, e.g. "Bad Request: message to delete not found". */
  get description(): string {
    return this.message;
  }
}

/** "Bad Request: chat not found" → bad_request; "Too Many Requests: retry after 3" → too_many_requests. */
function codeOf(description: string): string {
  const prefix = description.split(':', 1)[0] ?? '';
  return (
    prefix
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'error'
  );
}

export function toBotApiError(body: unknown, response: Response): BotApiError {
  const headers = headerFields(response);
  if (isRecord(body) && body.ok === false && typeof body.error_code === 'number' && typeof body.description === 'string') {
    const parameters = isRecord(body.parameters) ? (body.parameters as ResponseParameters) : undefined;
    return new BotApiError({
      status: body.error_code,
      code: codeOf(body.description),
      message: body.description,
      details: parameters,
      requestId: headers.requestId,
      retryAfter: typeof parameters?.retry_after === 'number' ? parameters.retry_after : headers.retryAfter,
      body,
      response,
    });
  }
  return new BotApiError(unexpectedFields(body, response));
}
