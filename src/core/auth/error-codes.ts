// The codes of bearer JWT authentication (errors.ts), shared by the listeners that take platform tokens; each
// interface's catalogue lists those that reach its wire.
export const bearerErrorCodes = [
  'unauthenticated',
  'token_malformed',
  'token_invalid',
  'token_expired',
  'token_lifetime_exceeded',
  'unknown_signing_key',
  'token_audience_mismatch',
  'account_unknown',
  'account_deactivated',
  'account_banned',
] as const;

export type BearerErrorCode = (typeof bearerErrorCodes)[number];
