// Turning error responses into typed values.
import type { ChatError, ChatErrorCode, ErrorDetail } from './types.js';

/** The code given to error responses whose body is not the chat error envelope (a proxy's 502 page, /readyz's 503). */
export const UNEXPECTED_RESPONSE = 'unexpected_response';

/** Thrown where a value cannot be returned (the `items()` iterator); carries the typed error. */
export class ChatApiError extends Error {
  override readonly name = 'ChatApiError';
  readonly error: ChatError;
  readonly response: Response;
  constructor(error: ChatError, response: Response) {
    super(`${error.status} ${error.code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`);
    this.error = error;
    this.response = response;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDetail(value: unknown): value is ErrorDetail {
  return isRecord(value) && typeof value.location === 'string' && typeof value.message === 'string';
}

/** Reads openapi-fetch's parsed error body (JSON when it parsed, else the text, else undefined) into a ChatError. */
export function toChatError(body: unknown, response: Response): ChatError {
  const headerId = response.headers.get('x-request-id') ?? '';
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' && typeof body.error.message === 'string') {
    const meta = isRecord(body.meta) ? body.meta : {};
    const error: ChatError = {
      status: response.status,
      code: body.error.code as ChatErrorCode,
      message: body.error.message,
      requestId: typeof meta.requestId === 'string' ? meta.requestId : headerId,
    };
    if (Array.isArray(body.error.details)) error.details = body.error.details.filter(isDetail);
    return error;
  }
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return {
    status: response.status,
    code: UNEXPECTED_RESPONSE,
    message: text ? `${statusLine}: ${text.slice(0, 500)}` : statusLine,
    requestId: headerId,
  };
}
