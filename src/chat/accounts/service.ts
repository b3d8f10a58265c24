// Accounts of the platform: registration (first or again, under the caller's scope), status and metadata.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '../../platform/db/orm.js';
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { syncAccount } from '../channels/sync.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { accountsAudience, emit, emitThroughOrm } from '../events/emit.js';
import { AccountEntity, type Account } from '../../core/accounts/entities.js';
import type { AccountScope } from './admin-gate.js';
import { accountRowView, accountView, type AccountStatus, type AccountView } from './views.js';
import {
  insertRegistered,
  lockAccount,
  moduleExists,
  updateMetadata,
  updateRegistered,
  type MetadataUpdate,
  type RegisterInput,
} from './queries.js';

export type { MetadataInput, MetadataUpdate, RegisterInput } from './queries.js';

/** Accounts outside the caller's scope answer exactly like missing ones. */
const accountNotFound = () => chatErrors.notFound('Account', 'account_not_found');
/** A username another account of the customer holds: the unique index accounts_username refused the write. */
const usernameTaken = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  (err as { code?: unknown }).code === '23505' &&
  (err as { constraint?: unknown }).constraint === 'accounts_username';
/** Two first registrations of one id at once: the loser's insert hits the primary key. */
const firstRegistrationRace = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  (err as { code?: unknown }).code === '23505' &&
  (err as { constraint?: unknown }).constraint === 'accounts_pkey';
const usernameTakenError = () => chatErrors.conflict('username_taken', 'Another account of this customer holds this username.');
const inScope = (scope: AccountScope, a: { moduleCode: string; customerAccountId: string }) =>
  scope === null || (a.moduleCode === scope.moduleCode && a.customerAccountId === scope.customerAccountId);

export class AccountService {
  constructor(private readonly deps: ChatDeps) {}

  /**
   * Creates the account, or updates it when the id exists for the same module and customer. RULE channels of its
   * module and customer are re-evaluated for it in the same transaction, so the answer and every channel membership
   * it implies commit together (docs/adr/0048-channel-rules.md).
   */
  async register(input: RegisterInput, scope: AccountScope): Promise<AccountView> {
    if (!inScope(scope, input)) throw chatErrors.forbidden('A module may register accounts of its own module and customer only.');
    const once = () =>
      inTransaction(this.deps.sql, async (client) => {
        const now = this.deps.clock.now();
        const view = await this.upsertLocked(client, input, now);
        await syncAccount(client, view.id, now);
        return view;
      });
    let result: AccountView;
    try {
      result = await once();
    } catch (err) {
      if (usernameTaken(err)) throw usernameTakenError();
      // Concurrent first registrations of one id: the row lock cannot lock a row that does not exist yet, so the
      // loser's insert hits the primary key (was a 500). Once more, it finds and locks the winner's row and upserts.
      if (!firstRegistrationRace(err)) throw err;
      try {
        result = await once();
      } catch (again) {
        throw usernameTaken(again) ? usernameTakenError() : again;
      }
    }
    return result;
  }

  /** The module check, then the account row locked and created or updated; a taken username fails the statement. */
  private async upsertLocked(client: SqlClient, input: RegisterInput, now: Date): Promise<AccountView> {
    if (!(await moduleExists(client, input.moduleCode)))
      throw chatErrors.invalid('body.moduleCode', `names no module; create module "${input.moduleCode}" first`);
    const current = await lockAccount(client, input.id);
    // An erased id stays taken for good: registering it again would hand its messages to a new person.
    if (current?.status === 'ERASED')
      throw chatErrors.conflict('account_erased', 'This account was erased; its id cannot be registered again.');
    if (current && (current.module_code !== input.moduleCode || current.customer_account_id !== input.customerAccountId)) {
      throw chatErrors.conflict('account_conflict', 'An account with this id belongs to another module or customer.');
    }
    const written = current ? await updateRegistered(client, input, now) : await insertRegistered(client, input, now);
    return accountRowView(written!);
  }

  /**
   * Every node drops its cached status before this answers, so the change holds from the very next request
   * anywhere. A repeat publishes again: a retry after a failed publish still reaches every node.
   */
  async setStatus(id: string, status: AccountStatus, scope: AccountScope): Promise<AccountView> {
    const view = await this.update(id, scope, (account, em) => {
      const previous = account.status;
      account.status = status;
      return previous === status
        ? undefined
        : emitThroughOrm(em, 'account.status_changed', { accountId: id, from: previous, to: status }, accountsAudience([account.id]));
    });
    await this.deps.accounts.invalidate(view.id);
    return view;
  }

  /**
   * Metadata, its event and the re-evaluation of every RULE channel of the account's module and customer commit
   * together: when this answers, the account's channel (and channel room) memberships follow the new metadata.
   */
  async setMetadata(id: string, metadata: MetadataUpdate, scope: AccountScope): Promise<AccountView> {
    const now = this.deps.clock.now();
    const row = await inTransaction(this.deps.sql, async (client) => {
      // the username is set in the same statement, so a taken name fails the whole update
      const updated = await updateMetadata(client, id, scope, metadata, now);
      if (!updated) throw accountNotFound();
      await emit(client, 'account.metadata_changed', { accountId: id }, accountsAudience([updated.id]));
      await syncAccount(client, id, now);
      return updated;
    }).catch((err: unknown) => {
      throw usernameTaken(err) ? usernameTakenError() : err;
    });
    return accountRowView(row);
  }

  private async update(
    id: string,
    scope: AccountScope,
    change: (account: Account, em: EntityManager) => Promise<void> | undefined,
  ): Promise<AccountView> {
    const view = await this.deps.orm.em.fork().transactional(async (em) => {
      const account = await em.findOne(AccountEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!account || account.status === 'ERASED' || !inScope(scope, account)) throw accountNotFound();
      await change(account, em);
      account.updatedAt = this.deps.clock.now();
      await em.flush();
      return accountView(account);
    });
    return view;
  }
}
