// Channels joined with the caller's membership, channel members, and their wire shapes.
import type { AccountType } from '../rooms/member-views.js';
import type { ChannelMemberRow, ChannelRow } from './queries.js';
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
