// The codes the shared HTTP layer makes itself (framework-errors.ts, unavailable.ts) before any interface code runs.
// Each interface's renderer passes them on or renames them; its catalogue lists what reaches the wire.
/** The framework's 400s for input it cannot read or accept; the partner interface answers them as bad_input. */
export const frameworkInputErrorCodes = ['validation_failed', 'malformed_json', 'malformed_request'] as const;

/** The framework's other codes, which every interface passes on (workspace names some of them by status instead). */
export const frameworkOtherErrorCodes = [
  'bad_request',
  'route_not_found',
  'method_not_allowed',
  'request_timeout',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'headers_too_large',
  'internal_error',
  'service_unavailable',
] as const;

export const frameworkErrorCodes = [...frameworkInputErrorCodes, ...frameworkOtherErrorCodes] as const;

export type FrameworkErrorCode = (typeof frameworkErrorCodes)[number];
