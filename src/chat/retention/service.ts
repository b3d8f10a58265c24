// Who may read and set retention, and the rule that a room's own is never longer than its customer's default. The
// expiry job (prune.ts) applies the shorter of the two, so lowering a default later still binds every room.
import { inTransaction } from '../../platform/db/sql.js';
import { accountScopeOf } from '../accounts/admin-gate.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { requireManager, roleIn } from '../base/membership.js';
import {
  clearCustomerRetention,
  clearRoomRetention,
  customerRetention,
  roomRetention,
  setCustomerRetention,
  setRoomRetention,
  type Customer,
} from './queries.js';

export interface CustomerRetentionView {
  moduleCode: string;
  customerAccountId: string;
  days: number | null;
  updatedAt: string | null;
}

export interface RoomRetentionView {
  roomId: string;
  days: number | null;
  customerDays: number | null;
  effectiveDays: number | null;
}

/**
 * The customer the call is about: a platform administrator names it (both parameters), a SERVICE account (the
 * admin gate let nothing else through) acts for its own and may name only that one.
 */
export function customerOf(caller: Caller, named: Partial<Customer>): Customer {
  const scope = accountScopeOf(caller);
  if (scope === null) {
    if (named.moduleCode === undefined) throw chatErrors.invalid('query.moduleCode', 'is required for a platform administrator');
    if (named.customerAccountId === undefined)
      throw chatErrors.invalid('query.customerAccountId', 'is required for a platform administrator');
    return { moduleCode: named.moduleCode, customerAccountId: named.customerAccountId };
  }
  if (
    (named.moduleCode ?? scope.moduleCode) !== scope.moduleCode ||
    (named.customerAccountId ?? scope.customerAccountId) !== scope.customerAccountId
  ) {
    throw chatErrors.forbidden('A module may set the retention of its own module and customer only.');
  }
  return scope;
}

export class RetentionService {
  constructor(private readonly deps: ChatDeps) {}

  async customer(caller: Caller, named: Partial<Customer>): Promise<CustomerRetentionView> {
    const c = customerOf(caller, named);
    const row = await customerRetention(this.deps.sql, c);
    return { ...c, days: row?.days ?? null, updatedAt: row ? row.updated_at.toISOString() : null };
  }

  async setCustomer(caller: Caller, named: Partial<Customer>, days: number | null): Promise<CustomerRetentionView> {
    const c = customerOf(caller, named);
    await inTransaction(this.deps.sql, (client) =>
      days === null ? clearCustomerRetention(client, c) : setCustomerRetention(client, c, days, this.deps.clock.now()),
    );
    return this.customer(caller, named);
  }

  /** Any member reads it; a non-member gets room_not_found. */
  async room(caller: Caller, roomId: string): Promise<RoomRetentionView> {
    await roleIn(this.deps.sql, roomId, caller.accountId);
    return this.view(roomId);
  }

  /** Owners and admins; never longer than the customer's default (400 on days), null inherits it. */
  async setRoom(caller: Caller, roomId: string, days: number | null): Promise<RoomRetentionView> {
    await inTransaction(this.deps.sql, async (client) => {
      requireManager(await roleIn(client, roomId, caller.accountId), "set the room's retention");
      if (days === null) return clearRoomRetention(client, roomId);
      const current = await roomRetention(client, roomId);
      const limit = current?.customer_days ?? null;
      if (limit !== null && days > limit) throw chatErrors.invalid('body.days', `must not exceed the customer's default of ${limit} days`);
      return setRoomRetention(client, roomId, days, this.deps.clock.now());
    });
    return this.view(roomId);
  }

  private async view(roomId: string): Promise<RoomRetentionView> {
    const row = await roomRetention(this.deps.sql, roomId);
    return { roomId, days: row?.days ?? null, customerDays: row?.customer_days ?? null, effectiveDays: row?.effective_days ?? null };
  }
}
