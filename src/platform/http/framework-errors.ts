// Turns whatever Fastify or a handler threw into an AppError, so that each interface's mapper only has to
// render one shape. Codes here are shared by every convention; each envelope carries them as it likes.
import type { FastifyError } from 'fastify';
import { AppError, type ErrorDetail } from './app-error.js';
import { dependencyUnavailable } from './unavailable.js';
import { maxBodyDepth } from '../json-depth.js';

interface AjvError {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const partNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function detailOf(part: string, e: AjvError): ErrorDetail {
  const path = (e.instancePath ?? '').split('/').filter(Boolean).join('.');
  const base = path ? `${part}.${path}` : part;
  const params = e.params ?? {};
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
    return { location: `${base}.${params.missingProperty}`, message: 'is required' };
  }
  // A sealed body reports an unknown field through the `not: {}` subschema of unevaluatedProperties.
  if (e.schemaPath?.includes('/unevaluatedProperties/') && path) return { location: base, message: 'is not a known field' };
  if (
    (e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties') &&
    (params.unevaluatedProperty || params.additionalProperty)
  ) {
    return { location: `${base}.${String(params.unevaluatedProperty ?? params.additionalProperty)}`, message: 'is not a known field' };
  }
  // A `false` subschema, or `not: {}` in a conditional's then, forbids a field beside others (two fields of which only
  // one may be given).
  if (e.keyword === 'false schema' || (e.keyword === 'not' && /\/then\/properties\/[^/]+\/not$/.test(e.schemaPath ?? ''))) {
    return { location: base, message: 'cannot be given together with the other fields of this request' };
  }
  if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return { location: base, message: `must be one of ${params.allowedValues.map(String).join(', ')}` };
  }
  return { location: base, message: e.message ?? 'is invalid' };
}

/** Keeps the first problem per location (allErrors reports anyOf branches and friends several times). */
function uniqueByLocation(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => (seen.has(d.location) ? false : (seen.add(d.location), true)));
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as FastifyError & { validation?: AjvError[]; validationContext?: string; errors?: unknown[] };
  // fastify-openapi-glue wraps security handler failures; the first wrapped error says why.
  if (e?.name === 'Unauthorized' && Array.isArray(e.errors) && e.errors[0] instanceof AppError) return e.errors[0];
  if (Array.isArray(e?.validation)) {
    const part = partNames[e.validationContext ?? 'body'] ?? 'body';
    // A failed if/then is reported by the errors of its branch, which name the field; the `if` error itself names none.
    const errors = e.validation.filter((v) => v.keyword !== 'if');
    const details = uniqueByLocation((errors.length > 0 ? errors : e.validation).map((v) => detailOf(part, v)));
    const summary = details.map((d) => `${d.location} ${d.message}`).join('; ');
    return new AppError(400, 'validation_failed', `The request is invalid: ${summary}`, details);
  }
  switch (e?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'malformed_json', `The body is not valid JSON: ${e.message}`, [{ location: 'body', message: e.message }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'The body is larger than this service accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'unsupported_media_type', 'Bodies must be sent as application/json.', [
        { location: 'header.content-type', message: 'must be application/json' },
      ]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, 'malformed_request', 'Content-Length does not match the body.');
    // Raised by the router before any route or hook runs.
    case 'FST_ERR_BAD_URL':
      return new AppError(400, 'malformed_request', 'The path is not valid percent-encoded UTF-8.', [
        { location: 'path', message: 'is not valid percent-encoded UTF-8' },
      ]);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError(414, 'uri_too_long', 'A path segment is longer than this service accepts.', [
        { location: 'path', message: 'has a segment that is too long' },
      ]);
  }
  if (err instanceof SyntaxError || e?.statusCode === 400) {
    return new AppError(400, 'malformed_request', e?.message ?? 'The request could not be read.');
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.statusCode, 'bad_request', e.message);
  }
  return dependencyUnavailable(err) ?? new AppError(500, 'internal_error', 'An internal error occurred; report it with the request id.');
}

export function routeNotFound(method: string, url: string): AppError {
  const path = url.split('?')[0] ?? url;
  return new AppError(404, 'route_not_found', `No operation ${method} ${path} exists.`);
}

export function methodNotAllowed(method: string, url: string, allowed: string[]): AppError {
  const path = url.split('?')[0] ?? url;
  return new AppError(405, 'method_not_allowed', `${path} does not support ${method}; it supports ${allowed.join(', ')}.`, undefined, {
    allow: allowed.join(', '),
  });
}

export function bodyMissing(): AppError {
  return new AppError(400, 'validation_failed', 'The request is invalid: body is required', [{ location: 'body', message: 'is required' }]);
}

export function bodyTooDeep(): AppError {
  const message = `nests objects and arrays deeper than ${maxBodyDepth} levels`;
  return new AppError(400, 'validation_failed', `The request is invalid: body ${message}`, [{ location: 'body', message }]);
}

export function illFormedUnicode(location: string): AppError {
  const message = 'must be well-formed Unicode (it contains a lone surrogate)';
  return new AppError(400, 'validation_failed', `The request is invalid: ${location} ${message}`, [{ location, message }]);
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (the `clientError` event): timeouts, oversized
 * headers, and requests that are not HTTP at all. Null when there is no one left to answer (the peer reset).
 */
export function clientErrorOf(err: { code?: string }): AppError | null {
  switch (err.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError(408, 'request_timeout', 'The request was not received in time; the connection is closed.');
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(431, 'headers_too_large', 'The request line and headers are larger than this service accepts.');
    default:
      return new AppError(400, 'malformed_request', 'The request is not valid HTTP/1.1.');
  }
}
