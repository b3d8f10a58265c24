// Contact requests between accounts of any module and customer. Invitations between one pair of accounts are
// serialised on an advisory lock of the pair, so two people inviting each other at the same moment always end
// ACCEPTED (the second sees the first's request).
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { accountsAudience, emit } from '../rooms/events.js';
import type { Page } from '../rooms/service.js';
import { contactQuery, contactView, type ContactRow, type ContactStatus, type ContactView, type Direction } from './views.js';

export interface ListContactsQuery {
  direction?: Direction;
  limit?: number;
  cursor?: string;
}

const requestNotFound = () => chatErrors.notFound('Contact request', 'contact_request_not_found');

export class ContactService {
  constructor(private readonly deps: ChatDeps) {}

  /** Pending requests in one direction, newest first; keyset (created_at, id). */
  async list(caller: Caller, query: ListContactsQuery): Promise<Page<ContactView>> {
    const list = `contact-requests:${caller.accountId}:${query.direction ?? 'incoming'}`;
    const limit = query.limit ?? 50;
    const params: unknown[] = [caller.accountId];
    let filter = `and c.status = 'PENDING' and ${query.direction === 'outgoing' ? 'c.requester_id' : 'c.invitee_id'} = $1`;
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      const at = cursorInstant(c?.a);
      const id = cursorUuid(c?.i);
      if (!at || !id) throw chatErrors.invalidCursor('query.cursor');
      params.push(at, id);
      filter += ' and (c.created_at, c.id) < ($2::timestamptz, $3::uuid)';
    }
    params.push(limit + 1);
    const { rows } = await this.deps.sql.query<ContactRow>(`${contactQuery(filter)} order by c.created_at desc, c.id desc limit $${params.length}`, params);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => contactView(r, caller.accountId)),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ a: last.created_at.toISOString(), i: last.id }, list) : null,
    };
  }

  /**
   * Idempotent: the caller's existing request to that account is answered as it is. When the other side already
   * invited the caller, its request becomes ACCEPTED and the caller's is made ACCEPTED at once.
   */
  async invite(caller: Caller, rawAccountId: string): Promise<ContactView> {
    const otherId = rawAccountId.toLowerCase();
    if (otherId === caller.accountId) throw chatErrors.invalid('body.accountId', 'is the caller; invite someone else');
    const { rowCount } = await this.deps.sql.query(`select 1 from accounts where id = $1 and status = 'ACTIVE' and account_type = 'USER'`, [otherId]);
    if (!rowCount) throw chatErrors.invalid('body.accountId', 'names no active user account');
    const { id, changed } = await inTransaction(this.deps.sql, async (client) => {
      const [low, high] = [caller.accountId, otherId].sort();
      await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`contact:${low}:${high}`]);
      const mine = await this.between(client, caller.accountId, otherId);
      if (mine) return { id: mine.id, changed: false };
      const theirs = await this.between(client, otherId, caller.accountId);
      const now = this.deps.clock.now();
      const status: ContactStatus = theirs ? 'ACCEPTED' : 'PENDING';
      const requestId = newId();
      await client.query(
        'insert into contact_requests (id, requester_id, invitee_id, status, created_at, accepted_at) values ($1, $2, $3, $4, $5, $6)',
        [requestId, caller.accountId, otherId, status, now, theirs ? now : null],
      );
      const audience = accountsAudience([caller.accountId, otherId]);
      if (!theirs) {
        await emit(client, 'contact_request.created', { requestId, requesterId: caller.accountId, inviteeId: otherId }, audience);
        return { id: requestId, changed: true };
      }
      if (theirs.status === 'PENDING') {
        await client.query(`update contact_requests set status = 'ACCEPTED', accepted_at = $2 where id = $1`, [theirs.id, now]);
        await emit(client, 'contact_request.accepted', { requestId: theirs.id, requesterId: otherId, inviteeId: caller.accountId, acceptedBy: caller.accountId, automatic: true }, audience);
      }
      await emit(client, 'contact_request.accepted', { requestId, requesterId: caller.accountId, inviteeId: otherId, acceptedBy: caller.accountId, automatic: true }, audience);
      return { id: requestId, changed: true };
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return this.view(caller, id);
  }

  /** The invitee only: the requester is refused (403), anyone else learns nothing (404). Accepting twice answers it unchanged. */
  async accept(caller: Caller, requestId: string): Promise<ContactView> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const { rows } = await client.query<{ requester_id: string; invitee_id: string; status: ContactStatus }>(
        'select requester_id, invitee_id, status from contact_requests where id = $1 for update',
        [requestId],
      );
      const request = rows[0];
      if (!request || (request.invitee_id !== caller.accountId && request.requester_id !== caller.accountId)) throw requestNotFound();
      if (request.invitee_id !== caller.accountId) throw chatErrors.forbidden('Only the invitee may accept a contact request.');
      if (request.status === 'ACCEPTED') return false;
      await client.query(`update contact_requests set status = 'ACCEPTED', accepted_at = $2 where id = $1`, [requestId, this.deps.clock.now()]);
      await emit(
        client,
        'contact_request.accepted',
        { requestId, requesterId: request.requester_id, inviteeId: caller.accountId, acceptedBy: caller.accountId, automatic: false },
        accountsAudience([request.requester_id, caller.accountId]),
      );
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return this.view(caller, requestId);
  }

  private async between(client: SqlClient, requesterId: string, inviteeId: string): Promise<{ id: string; status: ContactStatus } | undefined> {
    const { rows } = await client.query<{ id: string; status: ContactStatus }>(
      'select id, status from contact_requests where requester_id = $1 and invitee_id = $2',
      [requesterId, inviteeId],
    );
    return rows[0];
  }

  private async view(caller: Caller, requestId: string): Promise<ContactView> {
    const { rows } = await this.deps.sql.query<ContactRow>(contactQuery('and c.id = $2'), [caller.accountId, requestId]);
    if (!rows[0]) throw requestNotFound();
    return contactView(rows[0], caller.accountId);
  }
}
