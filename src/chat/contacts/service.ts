// Contact requests between accounts of any module and customer, and their lifecycle: PENDING, then ACCEPTED,
// DECLINED (invitee) or CANCELLED (requester); ACCEPTED, then REMOVED (either side). Changes to the requests of one
// pair of accounts are serialised on an advisory lock of the pair, so two people inviting each other at the same
// moment always end ACCEPTED (the second sees the first's request), and an answer never races an invitation.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { EventFields } from '../events/topics.js';
import type { Page } from '../base/paging.js';
import { contactView, type ContactStatus, type ContactView, type Direction } from './views.js';
import {
  acceptedBetween,
  acceptRequest,
  activeUser,
  contactOf,
  endRequest,
  insertRequest,
  liveRequest,
  lockPair,
  pendingContactPage,
  requestOf,
  type RequestRow,
} from './queries.js';

/** The events of a request that ends: declined, cancelled, or an accepted contact removed. */
type EndTopic = 'contact_request.declined' | 'contact_request.cancelled' | 'contact_request.removed';

export interface ListContactsQuery {
  direction?: Direction;
  limit?: number;
  cursor?: string;
}

const requestNotFound = () => chatErrors.notFound('Contact request', 'contact_request_not_found');
const notPending = () => chatErrors.conflict('contact_request_not_pending', 'The contact request is no longer pending.');

interface Transition {
  /** Who may make the move; the other side is refused with `refusal` (403). */
  by: 'invitee' | 'requester' | 'either';
  refusal: string;
  from: ContactStatus;
  to: ContactStatus;
  /** The refusal for a request in neither `from` nor `to`. */
  ended: () => Error;
  apply: (client: SqlClient, request: RequestRow, now: Date) => Promise<void>;
}

const parties = (r: RequestRow) => ({ requestId: r.id, requesterId: r.requester_id, inviteeId: r.invitee_id });
const pairAudience = (r: RequestRow) => accountsAudience([r.requester_id, r.invitee_id]);

export class ContactService {
  constructor(private readonly deps: ChatDeps) {}

  /** Pending requests in one direction, newest first; keyset (created_at, id). */
  async list(caller: Caller, query: ListContactsQuery): Promise<Page<ContactView>> {
    const list = `contact-requests:${caller.accountId}:${query.direction ?? 'incoming'}`;
    const limit = query.limit ?? 50;
    let after: { at: string; id: string } | null = null;
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      const at = cursorInstant(c?.a);
      const id = cursorUuid(c?.i);
      if (!at || !id) throw chatErrors.invalidCursor('query.cursor');
      after = { at, id };
    }
    const found = await pendingContactPage(this.deps.sql, caller.accountId, query.direction ?? 'incoming', after, limit + 1);
    const hasMore = found.length > limit;
    const page = found.slice(0, limit);
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
    const active = await activeUser(this.deps.sql, otherId);
    if (!active) throw chatErrors.invalid('body.accountId', 'names no active user account');
    const id = await inTransaction(this.deps.sql, async (client) => {
      await lockPair(client, caller.accountId, otherId);
      const mine = await liveRequest(client, caller.accountId, otherId);
      if (mine) return mine.id;
      const theirs = await liveRequest(client, otherId, caller.accountId);
      const now = this.deps.clock.now();
      const status: ContactStatus = theirs ? 'ACCEPTED' : 'PENDING';
      const requestId = newId();
      await insertRequest(client, {
        id: requestId,
        requesterId: caller.accountId,
        inviteeId: otherId,
        status,
        at: now,
        acceptedAt: theirs ? now : null,
      });
      const audience = accountsAudience([caller.accountId, otherId]);
      if (!theirs) {
        await emit(client, 'contact_request.created', { requestId, requesterId: caller.accountId, inviteeId: otherId }, audience);
        return requestId;
      }
      if (theirs.status === 'PENDING') {
        await acceptRequest(client, theirs.id, now);
        await emit(
          client,
          'contact_request.accepted',
          { requestId: theirs.id, requesterId: otherId, inviteeId: caller.accountId, acceptedBy: caller.accountId, automatic: true },
          audience,
        );
      }
      await emit(
        client,
        'contact_request.accepted',
        { requestId, requesterId: caller.accountId, inviteeId: otherId, acceptedBy: caller.accountId, automatic: true },
        audience,
      );
      return requestId;
    });
    return this.view(caller, id);
  }

  /** The invitee only: the requester is refused (403), anyone else learns nothing (404). Accepting twice answers it unchanged. */
  async accept(caller: Caller, requestId: string): Promise<ContactView> {
    return this.transition(caller, requestId, {
      by: 'invitee',
      refusal: 'Only the invitee may accept a contact request.',
      from: 'PENDING',
      to: 'ACCEPTED',
      ended: notPending,
      apply: async (client, request, now) => {
        await acceptRequest(client, request.id, now);
        await emit(
          client,
          'contact_request.accepted',
          { ...parties(request), acceptedBy: caller.accountId, automatic: false },
          pairAudience(request),
        );
      },
    });
  }

  /** The invitee turns a PENDING request down; the requester is refused (403). Declining twice answers it unchanged. */
  async decline(caller: Caller, requestId: string): Promise<ContactView> {
    return this.transition(caller, requestId, {
      by: 'invitee',
      refusal: 'Only the invitee may decline a contact request.',
      from: 'PENDING',
      to: 'DECLINED',
      ended: notPending,
      apply: (client, request, now) =>
        this.end(client, [request], 'DECLINED', now, 'contact_request.declined', { declinedBy: caller.accountId }),
    });
  }

  /** The requester withdraws a PENDING request; the invitee is refused (403). Cancelling twice answers it unchanged. */
  async cancel(caller: Caller, requestId: string): Promise<ContactView> {
    return this.transition(caller, requestId, {
      by: 'requester',
      refusal: 'Only the requester may cancel a contact request.',
      from: 'PENDING',
      to: 'CANCELLED',
      ended: notPending,
      apply: (client, request, now) =>
        this.end(client, [request], 'CANCELLED', now, 'contact_request.cancelled', { cancelledBy: caller.accountId }),
    });
  }

  /** Either side ends an accepted contact: every ACCEPTED request between the two (one per direction) becomes REMOVED. */
  async remove(caller: Caller, requestId: string): Promise<ContactView> {
    return this.transition(caller, requestId, {
      by: 'either',
      refusal: '',
      from: 'ACCEPTED',
      to: 'REMOVED',
      ended: () => chatErrors.conflict('contact_not_accepted', 'Only an accepted contact can be removed.'),
      apply: async (client, request, now) => {
        const accepted = await acceptedBetween(client, request);
        await this.end(client, accepted, 'REMOVED', now, 'contact_request.removed', { removedBy: caller.accountId });
      },
    });
  }

  /**
   * One move of a request's state, under the pair's lock (the one invitations take), so that an invitation that
   * accepts automatically and a decline or cancel of the same request never both win. A request already in the
   * target state answers unchanged; one in any other state than `from` is refused with `ended`.
   */
  private async transition(caller: Caller, requestId: string, move: Transition): Promise<ContactView> {
    await inTransaction(this.deps.sql, async (client) => {
      const first = await requestOf(client, requestId, false);
      if (!first || (first.invitee_id !== caller.accountId && first.requester_id !== caller.accountId)) throw requestNotFound();
      const side = first.invitee_id === caller.accountId ? 'invitee' : 'requester';
      if (move.by !== 'either' && move.by !== side) throw chatErrors.forbidden(move.refusal);
      await lockPair(client, first.requester_id, first.invitee_id);
      const request = (await requestOf(client, requestId, true))!;
      if (request.status === move.to) return;
      if (request.status !== move.from) throw move.ended();
      await move.apply(client, request, this.deps.clock.now());
    });
    return this.view(caller, requestId);
  }

  /** Ends requests in one status, with one event per request to both sides. */
  private async end(
    client: SqlClient,
    requests: RequestRow[],
    status: ContactStatus,
    now: Date,
    topic: EndTopic,
    by: Record<string, string>,
  ): Promise<void> {
    for (const request of requests) {
      await endRequest(client, request.id, status, now);
      // Each topic's one extra field (declinedBy, cancelledBy, removedBy) comes in `by`, which the callers pair with it.
      await emit(client, topic, { ...parties(request), ...by } as EventFields<EndTopic>, pairAudience(request));
    }
  }

  private async view(caller: Caller, requestId: string): Promise<ContactView> {
    const row = await contactOf(this.deps.sql, caller.accountId, requestId);
    if (!row) throw requestNotFound();
    return contactView(row, caller.accountId);
  }
}
