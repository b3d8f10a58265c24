// Channels joined with the caller's membership, channel members, and their wire shapes.
import type { AccountType } from '../rooms/member-views.js';
import { chatDb } from '../base/tables.js';
import type { ChannelRole, MembershipMode, Rule } from '../base/channel-access.js';

export interface ChannelView {
  id: string;
  name: string;
  description: string | null;
  membershipMode: MembershipMode;
  rule: Rule | null;
  memberCount: number;
  createdBy: string;
  createdAt: string;
  myRole: ChannelRole;
  pinned: boolean;
}

/** Channels the caller is a member of, with the caller's row (m); callers add conditions on c and m. */
export const channelQuery = (callerId: string) =>
  chatDb
    .selectFrom('channel_members as m')
    .innerJoin('channels as c', (join) => join.onRef('c.id', '=', 'm.channel_id').on('c.deleted_at', 'is', null))
    .select(['c.id', 'c.name', 'c.description', 'c.membership_mode', 'c.rule', 'c.member_count', 'c.created_by', 'c.created_at'])
    .select(['m.role as my_role', 'm.pinned'])
    .where('m.account_id', '=', callerId);

export type ChannelRow = NonNullable<Awaited<ReturnType<ReturnType<typeof channelQuery>['executeTakeFirst']>>>;

export function channelView(row: ChannelRow): ChannelView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // the service writes no other mode, rule shape or role (ChannelService, parseRule)
    membershipMode: row.membership_mode as MembershipMode,
    rule: row.rule as Rule | null,
    memberCount: row.member_count,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    myRole: row.my_role as ChannelRole,
    pinned: row.pinned,
  };
}

export interface ChannelMemberView {
  accountId: string;
  role: ChannelRole;
  joinedAt: string;
  displayName: string;
  avatarUrl: string | null;
  accountType: AccountType;
}

/** Members of a channel with their account's display fields; callers add conditions on m. */
export const channelMemberQuery = (channelId: string) =>
  chatDb
    .selectFrom('channel_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.account_id', 'm.role', 'm.joined_at', 'a.display_name', 'a.avatar_url', 'a.account_type'])
    .where('m.channel_id', '=', channelId);

export type ChannelMemberRow = NonNullable<Awaited<ReturnType<ReturnType<typeof channelMemberQuery>['executeTakeFirst']>>>;

export function channelMemberView(row: ChannelMemberRow): ChannelMemberView {
  return {
    accountId: row.account_id,
    // the service writes no other role; accounts hold no other type
    role: row.role as ChannelRole,
    joinedAt: row.joined_at.toISOString(),
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    accountType: row.account_type as AccountType,
  };
}
