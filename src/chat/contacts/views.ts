// Contact requests as the caller sees them: incoming when the caller is the invitee, outgoing when it asked.
import { chatDb } from '../base/tables.js';

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

/** Requests involving the caller, with the other side's account; callers add conditions on c. */
export const contactQuery = (callerId: string) =>
  chatDb
    .selectFrom('contact_requests as c')
    .innerJoin('accounts as a', (join) =>
      join.on((eb) =>
        eb('a.id', '=', eb.case().when('c.requester_id', '=', callerId).then(eb.ref('c.invitee_id')).else(eb.ref('c.requester_id')).end()),
      ),
    )
    .select(['c.id', 'c.requester_id', 'c.invitee_id', 'c.status', 'c.created_at', 'c.accepted_at', 'c.ended_at', 'a.id as other_id'])
    .select(['a.display_name', 'a.avatar_url', 'a.module_code', 'a.customer_account_id'])
    .where((eb) => eb.or([eb('c.requester_id', '=', callerId), eb('c.invitee_id', '=', callerId)]));

export type ContactRow = NonNullable<Awaited<ReturnType<ReturnType<typeof contactQuery>['executeTakeFirst']>>>;

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
