// The caller's membership of a channel, the gate of every channel-scoped operation: a channel the caller is not a
// member of (or a deleted one, whose member rows are gone) is 404 channel_not_found, a missing role 403 and the
// wrong membership mode 409.
import type { Caller } from './context.js';
import { chatErrors } from './errors.js';
import { channelAccessRow } from './queries.js';
import type { Queryable } from './membership.js';

/** Whether members are added by hand or come from the channel's rule. */
export type MembershipMode = 'EXPLICIT' | 'RULE';
export type ChannelRole = 'OWNER' | 'ADMIN' | 'MEMBER';

/** The fields of account metadata a channel rule may test. */
export type RuleField = 'team' | 'department' | 'role' | 'tags';

/** A channel rule: conditions over account metadata (the language is parsed by src/chat/channels/rule.ts). */
export type Rule =
  | { all: Rule[] }
  | { any: Rule[] }
  | { not: Rule }
  | { field: RuleField; equals: string }
  | { field: RuleField; in: string[] }
  | { field: 'tags'; contains: string };

export interface ChannelAccess {
  channelId: string;
  mode: MembershipMode;
  role: ChannelRole;
  moduleCode: string;
  customerAccountId: string;
  rule: Rule | null;
}

export const channelNotFound = () => chatErrors.notFound('Channel', 'channel_not_found');

/** With `lock`, the channel row is locked: membership changes of one channel are serialised on it. */
export async function channelAccess(db: Queryable, caller: Caller, channelId: string, lock = false): Promise<ChannelAccess> {
  const row = await channelAccessRow(db, caller.accountId, channelId, lock);
  if (!row) throw channelNotFound();
  // The service writes no other mode, role or rule shape (ChannelService, parseRule).
  return {
    channelId,
    mode: row.membership_mode as MembershipMode,
    role: row.role as ChannelRole,
    moduleCode: row.module_code,
    customerAccountId: row.customer_account_id,
    rule: row.rule as Rule | null,
  };
}

export const isChannelManager = (a: ChannelAccess) => a.role === 'OWNER' || a.role === 'ADMIN';

export function requireChannelManager(a: ChannelAccess, action: string): void {
  if (!isChannelManager(a)) throw chatErrors.forbidden(`Only an owner or admin of the channel may ${action}.`);
}

export function requireChannelOwner(a: ChannelAccess, action: string): void {
  if (a.role !== 'OWNER') throw chatErrors.forbidden(`Only an owner of the channel may ${action}.`);
}

/** Members of a RULE channel come from its rule only. */
export function requireExplicitMode(a: ChannelAccess): void {
  if (a.mode !== 'EXPLICIT') {
    throw chatErrors.conflict(
      'channel_rule_managed',
      'The members of a RULE channel come from its rule; change the rule (PUT /api/v1/channels/{id}/rule) instead.',
    );
  }
}

export function requireRuleMode(a: ChannelAccess): void {
  if (a.mode !== 'RULE') {
    throw chatErrors.conflict(
      'channel_not_rule_based',
      'The channel has membershipMode EXPLICIT: it has no rule; add members with POST /api/v1/channels/{id}/members.',
    );
  }
}
