// Contact requests as the caller sees them: incoming when the caller is the invitee, outgoing when it asked.
import type { ContactRow } from './queries.js';

export type ContactStatus = 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'CANCELLED' | 'REMOVED';
export type Direction = 'incoming' | 'outgoing';

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

export function contactView(row: ContactRow, callerId: string): ContactView {
  return {
    id: row.id,
    direction: row.invitee_id === callerId ? 'incoming' : 'outgoing',
    // the service writes no other status (ContactService)
    status: row.status as ContactStatus,
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
