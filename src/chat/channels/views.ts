// Channels joined with the caller's membership, channel members, and their wire shapes.
import type { AccountType } from '../members/views.js';
import type { Rule } from './rule.js';

export type MembershipMode = 'EXPLICIT' | 'RULE';
export type ChannelRole = 'OWNER' | 'ADMIN' | 'MEMBER';

export interface ChannelRow {
  id: string;
  name: string;
  description: string | null;
  membership_mode: MembershipMode;
  rule: Rule | null;
  member_count: number;
  created_by: string;
  created_at: Date;
  my_role: ChannelRole;
  pinned: boolean;
}

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

/** Channels the caller ($1) is a member of; `filter` adds conditions on c (channels) and m (the caller's row). */
export const channelQuery = (filter: string) => `
  select c.id, c.name, c.description, c.membership_mode, c.rule, c.member_count, c.created_by, c.created_at,
         m.role as my_role, m.pinned
    from channel_members m join channels c on c.id = m.channel_id and c.deleted_at is null
   where m.account_id = $1 ${filter}`;

export function channelView(row: ChannelRow): ChannelView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    membershipMode: row.membership_mode,
    rule: row.rule,
    memberCount: row.member_count,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    myRole: row.my_role,
    pinned: row.pinned,
  };
}

export interface ChannelMemberRow {
  account_id: string;
  role: ChannelRole;
  joined_at: Date;
  display_name: string;
  avatar_url: string | null;
  account_type: AccountType;
}

export interface ChannelMemberView {
  accountId: string;
  role: ChannelRole;
  joinedAt: string;
  displayName: string;
  avatarUrl: string | null;
  accountType: AccountType;
}

/** Members of channel $1 with their account's display fields. */
export const channelMemberSelect = `
  select m.account_id, m.role, m.joined_at, a.display_name, a.avatar_url, a.account_type
    from channel_members m join accounts a on a.id = m.account_id
   where m.channel_id = $1`;

export function channelMemberView(row: ChannelMemberRow): ChannelMemberView {
  return {
    accountId: row.account_id,
    role: row.role,
    joinedAt: row.joined_at.toISOString(),
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    accountType: row.account_type,
  };
}
