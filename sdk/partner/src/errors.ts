// Error responses as a typed exception: every method resolves to the body or throws PartnerApiError, the core's
// ApiError read from the partner envelope { error: { code, message, details, retry_after? }, request_id }.
import { ApiError, headerFields, isRecord, unexpectedFields, type UNEXPECTED_RESPONSE } from '@chat-platform/sdk-core';
import type { PartnerErrorCode } from './types.js';

export { UNEXPECTED_RESPONSE, parseRetryAfter } from '@chat-platform/sdk-core';

/** An error response of the partner API. `message` is the server's human-readable message. */
export class PartnerApiError extends ApiError<PartnerErrorCode, Record<string, unknown>> {
  override readonly name = 'PartnerApiError';
  /** Stable snake_case code: invalid_api_key, scope_required, bad_input, lead_not_found, rate_limit_exceeded, ... */
  declare readonly code: PartnerErrorCode | typeof UNEXPECTED_RESPONSE;
  /** What the problem is about, e.g. { scope: 'crm_leads:write' } or { field: 'body.x', errors: [...] }; {} if nothing. */
  declare readonly details: Record<string, unknown>;
}

/** Reads openapi-fetch's parsed error body (JSON when it parsed, else the text, else undefined) into the error. */
export function toPartnerApiError(body: unknown, response: Response): PartnerApiError {
  const headers = headerFields(response);
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' && typeof body.error.message === 'string') {
    const bodyRetry = typeof body.error.retry_after === 'number' ? body.error.retry_after : undefined;
    return new PartnerApiError({
      status: response.status,
      code: body.error.code as PartnerErrorCode,
      message: body.error.message,
      details: isRecord(body.error.details) ? body.error.details : {},
      requestId: typeof body.request_id === 'string' && body.request_id !== '' ? body.request_id : headers.requestId,
      retryAfter: headers.retryAfter ?? bodyRetry,
      body,
      response,
    });
  }
  return new PartnerApiError({ ...unexpectedFields(body, response), details: {} });
}
