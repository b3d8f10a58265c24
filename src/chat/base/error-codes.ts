// Every code the chat service answers with in its error envelope; docs/errors.md documents each one and `make generate`
// writes them into the spec as the enum ChatErrorCode (spec/common/chat-error-codes.tsp). Adding a code: one line here,
// `make generate`, a row in the docs table (error-catalogue.test.ts checks that all of them agree).
import { bearerErrorCodes } from '../../core/auth/error-codes.js';
import { frameworkErrorCodes } from '../../platform/http/framework-error-codes.js';

export const chatErrorCodes = [
  ...frameworkErrorCodes,
  ...bearerErrorCodes,
  'invalid_cursor',
  'platform_admin_required',
  'account_admin_required',
  'forbidden',
  'rate_limited',
  'events_expired',
  // administration
  'module_not_found',
  'module_exists',
  'key_exists',
  'account_not_found',
  'account_conflict',
  'workspace_not_found',
  // rooms and members
  'room_not_found',
  'member_not_found',
  'join_request_not_found',
  'join_request_resolved',
  'unsupported_room_type',
  'last_owner',
  // messages, threads, pins
  'message_not_found',
  'message_recalled',
  'message_not_editable',
  'edit_window_expired',
  'snap_not_found',
  'mention_not_found',
  // channels, contacts, broadcasts
  'channel_not_found',
  'channel_rule_managed',
  'channel_not_rule_based',
  'contact_request_not_found',
  'contact_request_not_pending',
  'contact_not_accepted',
  'broadcast_not_found',
  // drafts, labels, saved messages, polls
  'label_not_found',
  'label_name_taken',
  'label_limit_reached',
  'saved_not_found',
  'poll_closed',
  // uploads, reminders, scheduled messages
  'upload_not_found',
  'upload_incomplete',
  'upload_already_attached',
  'file_not_found',
  'reminder_not_found',
  'reminder_not_active',
  'scheduled_message_not_found',
  'scheduled_message_not_pending',
  // bots
  'bot_not_found',
  'username_taken',
  'bot_not_in_room',
  'bot_unavailable',
  // account erasure
  'account_erased',
  'erasure_not_found',
  // exports
  'export_not_found',
  'export_running',
] as const;

export type ChatErrorCode = (typeof chatErrorCodes)[number];
