// Every code the partner interface (convention A) answers with in { error: { code } }; docs/partner.md documents
// each one and `make generate` writes them into the spec as the enum PartnerErrorCode
// (spec/partner/error-codes.tsp). Adding a code: one line here, `make generate`, a row in the docs table
// (error-catalogue.test.ts checks that all of them agree).
// Framework 400s (frameworkInputErrorCodes, bad_request with 400, invalid_cursor) reach the wire as bad_input.
import { bearerErrorCodes } from '../../core/auth/error-codes.js';
import { crmNotFoundCodes } from '../../core/crm/not-found-codes.js';
import { frameworkOtherErrorCodes } from '../../platform/http/framework-error-codes.js';

export const partnerErrorCodes = [
  // made by the shared HTTP layer and passed on as they are
  ...frameworkOtherErrorCodes,
  // administration calls take a platform bearer token
  ...bearerErrorCodes,
  // the key gate
  'bad_input',
  'invalid_api_key',
  'external_api_disabled',
  'scope_required',
  'permission_denied',
  'platform_admin_required',
  'rate_limit_exceeded',
  'idempotency_conflict',
  // records and administration objects
  ...crmNotFoundCodes,
  'workspace_not_found',
  'api_key_not_found',
  'account_not_found',
  'member_not_found',
  'role_not_found',
  'api_key_already_revoked',
  'role_exists',
  'role_locked',
  'owner_immutable',
  // webhooks
  'not_found',
  'webhook_not_found',
  'delivery_not_found',
  'webhook_disabled',
  'delivery_in_progress',
  'webhook_limit_reached',
  // inbox
  'conversation_not_found',
  'message_not_found',
  'channel_not_found',
  'conversation_closed',
  // knowledge base, AI agents and stored files
  'article_not_found',
  'agent_not_found',
  'agent_disabled',
  'file_not_found',
] as const;

export type PartnerErrorCode = (typeof partnerErrorCodes)[number];
