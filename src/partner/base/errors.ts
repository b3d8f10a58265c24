// The partner interface's error envelope (convention A): { error: { code, message, details }, request_id }.
// Every error, framework ones included, is rendered here; the catalogue is error-codes.ts, written down in docs/partner.md.
import { AppError, type ErrorDetail } from '../../platform/http/app-error.js';
import { frameworkInputErrorCodes } from '../../platform/http/framework-error-codes.js';
import type { ErrorRendering, ErrorRequest } from '../../platform/http/server.js';
import type { PartnerErrorCode } from './error-codes.js';

/** An error whose details are an object of the partner convention, e.g. { scope: 'crm_leads:write' }; its code is one of the catalogue's. */
export class PartnerAppError extends AppError {
  constructor(
    status: number,
    code: PartnerErrorCode,
    message: string,
    readonly info: Record<string, unknown> = {},
    headers?: Record<string, string>,
    readonly retryAfter?: number,
  ) {
    super(status, code, message, undefined, headers);
  }
}

/** Framework and shared 400 codes all mean "the input is not acceptable" in this convention. */
const badInputCodes = new Set<string>([...frameworkInputErrorCodes, 'bad_request', 'invalid_cursor']);

function fieldDetails(details: ErrorDetail[]): Record<string, unknown> {
  return { field: details[0]?.location, errors: details.map((d) => ({ field: d.location, message: d.message })) };
}

export function renderPartnerError(error: AppError, request: ErrorRequest): ErrorRendering {
  let code = error.code;
  let details: Record<string, unknown> = {};
  if (error instanceof PartnerAppError) details = error.info;
  else if (error.details && error.details.length > 0) details = fieldDetails(error.details);
  if (error.status === 400 && badInputCodes.has(code)) code = 'bad_input';
  const retryAfter = error instanceof PartnerAppError ? error.retryAfter : undefined;
  return {
    body: {
      error: { code, message: error.message, details, ...(retryAfter !== undefined ? { retry_after: retryAfter } : {}) },
      request_id: request.id,
    },
  };
}

export const partnerErrors = {
  apiKeyMissing: () =>
    new PartnerAppError(401, 'invalid_api_key', 'An X-Api-Key header with a valid API key is required.', { header: 'X-Api-Key' }),
  invalidApiKey: () => new PartnerAppError(401, 'invalid_api_key', 'The API key is wrong, revoked or expired.', { header: 'X-Api-Key' }),
  externalApiDisabled: () => new PartnerAppError(403, 'external_api_disabled', 'External API access is not enabled for this organisation.'),
  userOnly: (path: string) =>
    new PartnerAppError(403, 'scope_required', `${path} is an internal surface that API keys cannot call, whatever their scopes.`, {
      scope: 'user_only',
    }),
  scopeRequired: (scope: string) =>
    new PartnerAppError(403, 'scope_required', `The API key lacks the scope ${scope}; scopes cannot change, so create a key that has it.`, {
      scope,
    }),
  badInput: (field: string, message: string) =>
    new PartnerAppError(400, 'bad_input', `The request is invalid: ${field} ${message}`, { field, errors: [{ field, message }] }),
  idempotencyConflict: () =>
    new PartnerAppError(409, 'idempotency_conflict', 'This Idempotency-Key was used with different content in the last 24 hours.', {
      header: 'Idempotency-Key',
    }),
  rateLimitExceeded: ({ window, limit, retryAfter }: { window: 'minute' | 'day'; limit: number; retryAfter: number }) =>
    new PartnerAppError(
      429,
      'rate_limit_exceeded',
      `More than ${limit} requests per ${window} from this address; retry in ${retryAfter} s.`,
      { window, limit },
      { 'retry-after': String(retryAfter) },
      retryAfter,
    ),
  notFound: (code: PartnerErrorCode, what: string) => new PartnerAppError(404, code, `${what} was not found.`),
  permissionDenied: (permission: string) =>
    new PartnerAppError(403, 'permission_denied', `Your role in this workspace lacks the ${permission} permission.`, { permission }),
  platformAdminRequired: () => new PartnerAppError(403, 'platform_admin_required', 'Only platform administrators may call this operation.'),
  conflict: (code: PartnerErrorCode, message: string, info: Record<string, unknown> = {}) => new PartnerAppError(409, code, message, info),
  unsupportedMediaType: (expected: string) =>
    new PartnerAppError(415, 'unsupported_media_type', `This operation takes the body as ${expected}.`, {
      header: 'Content-Type',
      expected,
    }),
};
