// Error responses as a typed exception: every method resolves to the body or throws WorkspaceApiError.
import type { ErrorBody, WorkspaceErrorCode } from './types.js';

/** The code given to error responses whose body is not the { error, message } envelope (a proxy's 502 page, say). */
export const UNEXPECTED_RESPONSE = 'unexpected_response';

export interface WorkspaceApiErrorInit {
  status: number;
  code: WorkspaceErrorCode | typeof UNEXPECTED_RESPONSE;
  message: string;
  requestId: string;
  retryAfter: number | undefined;
  body: unknown;
  response: Response;
}

/** An error response of the workspace API. `message` is the server's message (a 403 names the missing scope). */
export class WorkspaceApiError extends Error {
  override readonly name = 'WorkspaceApiError';
  readonly status: number;
  /** The body's error: unauthorized, forbidden, ip_not_allowed, rate_limit_exceeded, internal_error, invalid_request, not_found, ... */
  readonly code: WorkspaceErrorCode | typeof UNEXPECTED_RESPONSE;
  /** The X-Request-ID header ('' when absent); quote it when reporting an error. */
  readonly requestId: string;
  /** Seconds to wait before retrying: the Retry-After header, else the body's retry_after (429). */
  readonly retryAfter: number | undefined;
  /** The parsed error body: the ErrorBody, or the text of a response that was not one. */
  readonly body: ErrorBody | unknown;
  readonly response: Response;

  constructor(init: WorkspaceApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
    this.response = init.response;
  }
}

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads openapi-fetch's parsed error body (JSON when it parsed, else the text, else undefined) into the error. */
export function toWorkspaceApiError(body: unknown, response: Response): WorkspaceApiError {
  const requestId = response.headers.get('x-request-id') ?? '';
  const headerRetry = parseRetryAfter(response.headers.get('retry-after'));
  if (isRecord(body) && typeof body.error === 'string' && typeof body.message === 'string') {
    return new WorkspaceApiError({
      status: response.status,
      code: body.error as WorkspaceErrorCode,
      message: body.message,
      requestId,
      retryAfter: headerRetry ?? (typeof body.retry_after === 'number' ? body.retry_after : undefined),
      body,
      response,
    });
  }
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return new WorkspaceApiError({
    status: response.status,
    code: UNEXPECTED_RESPONSE,
    message: text ? `${statusLine}: ${text.slice(0, 500)}` : statusLine,
    requestId,
    retryAfter: headerRetry,
    body,
    response,
  });
}
