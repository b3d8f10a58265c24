// Contact requests as the caller sees them: incoming when the caller is the invitee, outgoing when it asked.

export type ContactStatus = 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'CANCELLED' | 'REMOVED';
export type Direction = 'incoming' | 'outgoing';

export interface ContactRow {
  id: string;
  requester_id: string;
  invitee_id: string;
  status: ContactStatus;
  created_at: Date;
  accepted_at: Date | null;
  ended_at: Date | null;
  other_id: string;
  display_name: string;
  avatar_url: string | null;
  module_code: string;
  customer_account_id: string;
}

export interface ContactView {
  id: string;
  direction: Direction;
  status: ContactStatus;
  accountId: string;
  displayName: string;
  avatarUrl: string | null;
  moduleCode: string;
  customerAccountId: string;
  createdAt: string;
  acceptedAt: string | null;
  endedAt: string | null;
}

/** Requests involving the caller ($1), with the other side's account; `filter` adds conditions on c. */
export const contactQuery = (filter: string) => `
  select c.id, c.requester_id, c.invitee_id, c.status, c.created_at, c.accepted_at, c.ended_at, a.id as other_id,
         a.display_name, a.avatar_url, a.module_code, a.customer_account_id
    from contact_requests c
    join accounts a on a.id = case when c.requester_id = $1 then c.invitee_id else c.requester_id end
   where (c.requester_id = $1 or c.invitee_id = $1) ${filter}`;

export function contactView(row: ContactRow, callerId: string): ContactView {
  return {
    id: row.id,
    direction: row.invitee_id === callerId ? 'incoming' : 'outgoing',
    status: row.status,
    accountId: row.other_id,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    moduleCode: row.module_code,
    customerAccountId: row.customer_account_id,
    createdAt: row.created_at.toISOString(),
    acceptedAt: row.accepted_at?.toISOString() ?? null,
    endedAt: row.ended_at?.toISOString() ?? null,
  };
}
