// Error responses as a typed exception: every method resolves to the body or throws PartnerApiError.
import type { ErrorEnvelope, PartnerErrorCode } from './types.js';

/** The code given to error responses whose body is not the partner error envelope (a proxy's 502 page, say). */
export const UNEXPECTED_RESPONSE = 'unexpected_response';

export interface PartnerApiErrorInit {
  status: number;
  code: PartnerErrorCode | typeof UNEXPECTED_RESPONSE;
  message: string;
  details: Record<string, unknown>;
  requestId: string;
  retryAfter: number | undefined;
  body: unknown;
  response: Response;
}

/** An error response of the partner API. `message` is the server's human-readable message. */
export class PartnerApiError extends Error {
  override readonly name = 'PartnerApiError';
  /** HTTP status. */
  readonly status: number;
  /** Stable snake_case code: invalid_api_key, scope_required, bad_input, lead_not_found, rate_limit_exceeded, ... */
  readonly code: PartnerErrorCode | typeof UNEXPECTED_RESPONSE;
  /** What the problem is about, e.g. { scope: 'crm_leads:write' } or { field: 'body.x', errors: [...] }; {} if nothing. */
  readonly details: Record<string, unknown>;
  /** The body's request_id, else the X-Request-Id header ('' when neither is there); quote it when reporting. */
  readonly requestId: string;
  /** Seconds to wait before retrying: the Retry-After header, else the body's retry_after (429 only, in practice). */
  readonly retryAfter: number | undefined;
  /** The parsed error body: the ErrorEnvelope, or the text of a response that was not one. */
  readonly body: ErrorEnvelope | unknown;
  readonly response: Response;

  constructor(init: PartnerApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
    this.response = init.response;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Reads openapi-fetch's parsed error body (JSON when it parsed, else the text, else undefined) into the error. */
export function toPartnerApiError(body: unknown, response: Response): PartnerApiError {
  const headerId = response.headers.get('x-request-id') ?? '';
  const headerRetry = parseRetryAfter(response.headers.get('retry-after'));
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' && typeof body.error.message === 'string') {
    const bodyRetry = typeof body.error.retry_after === 'number' ? body.error.retry_after : undefined;
    return new PartnerApiError({
      status: response.status,
      code: body.error.code as PartnerErrorCode,
      message: body.error.message,
      details: isRecord(body.error.details) ? body.error.details : {},
      requestId: typeof body.request_id === 'string' && body.request_id !== '' ? body.request_id : headerId,
      retryAfter: headerRetry ?? bodyRetry,
      body,
      response,
    });
  }
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return new PartnerApiError({
    status: response.status,
    code: UNEXPECTED_RESPONSE,
    message: text ? `${statusLine}: ${text.slice(0, 500)}` : statusLine,
    details: {},
    requestId: headerId,
    retryAfter: headerRetry,
    body,
    response,
  });
}
