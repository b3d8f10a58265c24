// Every code the workspace interface (convention B) answers with in { error: <code> }; docs/workspace.md documents
// each one and `make generate` writes them into the spec as the enum WorkspaceErrorCode
// (spec/workspace/error-codes.tsp). Adding a code: one line here, `make generate`, a row in the docs table
// (error-catalogue.test.ts checks that all of them agree).
// Errors made outside this interface are named by their status (errors.ts), so the list stays closed.
export const workspaceErrorCodes = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'ip_not_allowed',
  'not_found',
  'method_not_allowed',
  'conflict',
  'rate_limit_exceeded',
  // made by the shared HTTP layer with a status this interface does not rename
  'bad_request',
  'request_timeout',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'headers_too_large',
  'internal_error',
  'service_unavailable',
] as const;

export type WorkspaceErrorCode = (typeof workspaceErrorCodes)[number];
