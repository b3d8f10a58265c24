// The one error every SDK throws for an error response: HTTP status, the API's stable code, details, request id.
// Each SDK reads its own envelope into it (errorFields below does the part they share) and names a subclass.

/** The code given to error responses whose body is not the API's error envelope (a proxy's 502 page, say). */
export const UNEXPECTED_RESPONSE = 'unexpected_response';

export interface ApiErrorInit<C extends string = string, D = unknown> {
  status: number;
  code: C | typeof UNEXPECTED_RESPONSE;
  message: string;
  details: D | undefined;
  requestId: string;
  retryAfter: number | undefined;
  body: unknown;
  response: Response;
}

/** An error response of one of the platform's APIs. `message` is the server's human-readable message. */
export class ApiError<C extends string = string, D = unknown> extends Error {
  override readonly name: string = 'ApiError';
  /** HTTP status. */
  readonly status: number;
  /** The API's stable snake_case code, or unexpected_response when the body was not its envelope. */
  readonly code: C | typeof UNEXPECTED_RESPONSE;
  /** What the problem is about (per-field problems, the missing scope, ...); undefined when the body had none. */
  readonly details: D | undefined;
  /** The request id the server gave (body or X-Request-Id header; '' when neither); quote it when reporting. */
  readonly requestId: string;
  /** Seconds to wait before retrying: the Retry-After header, else the body's own retry hint. */
  readonly retryAfter: number | undefined;
  /** The parsed error body: the API's envelope, or the text of a response that was not one. */
  readonly body: unknown;
  readonly response: Response;

  constructor(init: ApiErrorInit<C, D>) {
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

/** Reads an error response into an ApiError (or a subclass): one per SDK, for its own envelope. */
export type ErrorReader = (body: unknown, response: Response) => ApiError;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** What the headers say whatever the body: the X-Request-Id and the Retry-After. */
export function headerFields(response: Response): { requestId: string; retryAfter: number | undefined } {
  return { requestId: response.headers.get('x-request-id') ?? '', retryAfter: parseRetryAfter(response.headers.get('retry-after')) };
}

/** The fields of an error whose body is not the API's envelope: the status line and the start of the text. */
export function unexpectedFields(body: unknown, response: Response): ApiErrorInit<never, never> {
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return {
    status: response.status,
    code: UNEXPECTED_RESPONSE,
    message: text ? `${statusLine}: ${text.slice(0, 500)}` : statusLine,
    details: undefined,
    ...headerFields(response),
    body,
    response,
  };
}
