// The codes the shared HTTP layer makes itself (framework-errors.ts, unavailable.ts) before any interface code runs.
// Each interface's renderer passes them on or renames them; its catalogue lists what reaches the wire.
export const frameworkErrorCodes = [
  'validation_failed',
  'malformed_json',
  'malformed_request',
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

export type FrameworkErrorCode = (typeof frameworkErrorCodes)[number];
