import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '../../platform/db/orm.js';
import { inTransaction } from '../../platform/db/sql.js';
import { syncAccount } from '../channels/sync.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { accountsAudience, emit, emitThroughOrm } from '../events/emit.js';
import { ModuleEntity } from '../admin-modules/entities.js';
import { AccountEntity, type Account } from './entities.js';
import type { AccountScope } from './admin-gate.js';

export type AccountStatus = 'ACTIVE' | 'DEACTIVATED' | 'BANNED';
export type AccountType = 'USER' | 'BOT' | 'SERVICE';

export interface MetadataInput {
  team?: string | null;
  department?: string | null;
  role?: string | null;
  tags?: string[];
}

/** The metadata update: metadata and the account's e-mail address (absent: unchanged, null: cleared). */
export interface MetadataUpdate extends MetadataInput {
  email?: string | null;
  username?: string | null;
}

export interface RegisterInput {
  id: string;
  moduleCode: string;
  customerAccountId: string;
  displayName: string;
  avatarUrl?: string | null;
  accountType?: AccountType;
  metadata?: MetadataInput;
  email?: string | null;
  username?: string | null;
}

export interface AccountView {
  id: string;
  moduleCode: string;
  customerAccountId: string;
  displayName: string;
  avatarUrl: string | null;
  accountType: AccountType;
  status: AccountStatus;
  metadata: { team: string | null; department: string | null; role: string | null; tags: string[] };
  email: string | null;
  username: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An accounts row as SQL returns it. */
interface AccountRow {
  id: string;
  module_code: string;
  customer_account_id: string;
  display_name: string;
  avatar_url: string | null;
  account_type: AccountType;
  status: AccountStatus;
  team: string | null;
  department: string | null;
  role: string | null;
  tags: string[];
  email: string | null;
  username: string | null;
  created_at: Date;
  updated_at: Date;
}

function accountRowView(r: AccountRow): AccountView {
  return {
    id: r.id,
    moduleCode: r.module_code,
    customerAccountId: r.customer_account_id,
    displayName: r.display_name,
    avatarUrl: r.avatar_url,
    accountType: r.account_type,
    status: r.status,
    metadata: { team: r.team, department: r.department, role: r.role, tags: r.tags },
    email: r.email,
    username: r.username,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export function accountView(a: Account): AccountView {
  return {
    id: a.id,
    moduleCode: a.moduleCode,
    customerAccountId: a.customerAccountId,
    displayName: a.displayName,
    avatarUrl: a.avatarUrl ?? null,
    accountType: a.accountType as AccountType,
    status: a.status as AccountStatus,
    metadata: { team: a.team ?? null, department: a.department ?? null, role: a.role ?? null, tags: [...a.tags] },
    email: a.email ?? null,
    username: a.username ?? null,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** Accounts outside the caller's scope answer exactly like missing ones. */
const accountNotFound = () => chatErrors.notFound('Account', 'account_not_found');
/** A username another account of the customer holds: the unique index accounts_username refused the write. */
const usernameTaken = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  (err as { code?: unknown }).code === '23505' &&
  (err as { constraint?: unknown }).constraint === 'accounts_username';
const usernameTakenError = () => chatErrors.conflict('username_taken', 'Another account of this customer holds this username.');
const inScope = (scope: AccountScope, a: { moduleCode: string; customerAccountId: string }) =>
  scope === null || (a.moduleCode === scope.moduleCode && a.customerAccountId === scope.customerAccountId);

function applyMetadata(account: Account, metadata: MetadataInput | undefined): void {
  if (!metadata) return;
  if (metadata.team !== undefined) account.team = metadata.team;
  if (metadata.department !== undefined) account.department = metadata.department;
  if (metadata.role !== undefined) account.role = metadata.role;
  if (metadata.tags !== undefined) account.tags = [...new Set(metadata.tags)];
}

export class AccountService {
  constructor(private readonly deps: ChatDeps) {}

  /**
   * Creates the account, or updates it when the id exists for the same module and customer. RULE channels of its
   * module and customer are re-evaluated for it right after the commit, before the answer (docs/adr/0048-channel-rules.md).
   */
  async register(input: RegisterInput, scope: AccountScope): Promise<AccountView> {
    if (!inScope(scope, input)) throw chatErrors.forbidden('A module may register accounts of its own module and customer only.');
    let view: AccountView;
    try {
      view = await this.registerOnce(input);
    } catch (err) {
      if (usernameTaken(err)) throw usernameTakenError();
      // Concurrent first registrations of one id: the row lock cannot lock a row that does not exist yet, so the
      // loser's insert hits the primary key (was a 500). Once more, it finds and locks the winner's row and upserts.
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      try {
        view = await this.registerOnce(input);
      } catch (again) {
        throw usernameTaken(again) ? usernameTakenError() : again;
      }
    }
    const changed = await inTransaction(this.deps.sql, (client) => syncAccount(client, view.id, this.deps.clock.now()));
    if (changed) this.deps.queues.requestOutboxDrain();
    return view;
  }

  private async registerOnce(input: RegisterInput): Promise<AccountView> {
    return this.deps.orm.em.fork().transactional(async (em) => {
      if (!(await em.findOne(ModuleEntity, { code: input.moduleCode }))) {
        throw chatErrors.invalid('body.moduleCode', `names no module; create module "${input.moduleCode}" first`);
      }
      const now = this.deps.clock.now();
      // Lock the row so concurrent upserts of one account serialise.
      let account = await em.findOne(AccountEntity, { id: input.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (account && (account.moduleCode !== input.moduleCode || account.customerAccountId !== input.customerAccountId)) {
        throw chatErrors.conflict('account_conflict', 'An account with this id belongs to another module or customer.');
      }
      if (!account) {
        account = em.create(AccountEntity, {
          id: input.id,
          moduleCode: input.moduleCode,
          customerAccountId: input.customerAccountId,
          displayName: input.displayName,
          avatarUrl: input.avatarUrl ?? null,
          accountType: input.accountType ?? 'USER',
          status: 'ACTIVE',
          team: null,
          department: null,
          role: null,
          tags: [],
          email: input.email ?? null,
          username: input.username ?? null,
          createdAt: now,
          updatedAt: now,
        });
      } else {
        account.displayName = input.displayName;
        if (input.avatarUrl !== undefined) account.avatarUrl = input.avatarUrl;
        if (input.accountType !== undefined) account.accountType = input.accountType;
        if (input.email !== undefined) account.email = input.email;
        if (input.username !== undefined) account.username = input.username;
        account.updatedAt = now;
      }
      applyMetadata(account, input.metadata);
      await em.flush();
      return accountView(account);
    });
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
      const set = (field: keyof MetadataUpdate) => metadata[field] !== undefined;
      // the username is set in the same statement, so a taken name fails the whole update
      const { rows } = await client.query<AccountRow>(
        `update accounts set team = case when $2 then $3 else team end, department = case when $4 then $5 else department end,
                role = case when $6 then $7 else role end, tags = case when $8 then $9::text[] else tags end, updated_at = $10,
                email = case when $13 then $14 else email end, username = case when $15 then $16 else username end
          where id = $1 and ($11::text is null or (module_code = $11 and customer_account_id = $12)) returning *`,
        [
          id,
          set('team'),
          metadata.team ?? null,
          set('department'),
          metadata.department ?? null,
          set('role'),
          metadata.role ?? null,
          set('tags'),
          [...new Set(metadata.tags ?? [])],
          now,
          scope?.moduleCode ?? null,
          scope?.customerAccountId ?? null,
          set('email'),
          metadata.email ?? null,
          set('username'),
          metadata.username ?? null,
        ],
      );
      if (!rows[0]) throw accountNotFound();
      await emit(client, 'account.metadata_changed', { accountId: id }, accountsAudience([rows[0].id]));
      await syncAccount(client, id, now);
      return rows[0];
    }).catch((err: unknown) => {
      throw usernameTaken(err) ? usernameTakenError() : err;
    });
    this.deps.queues.requestOutboxDrain();
    return accountRowView(row);
  }

  private async update(
    id: string,
    scope: AccountScope,
    change: (account: Account, em: EntityManager) => Promise<void> | undefined,
  ): Promise<AccountView> {
    const view = await this.deps.orm.em.fork().transactional(async (em) => {
      const account = await em.findOne(AccountEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!account || !inScope(scope, account)) throw accountNotFound();
      await change(account, em);
      account.updatedAt = this.deps.clock.now();
      await em.flush();
      return accountView(account);
    });
    this.deps.queues.requestOutboxDrain();
    return view;
  }
}
