// An account as the administration API answers it, from its row or from its entity.
import type { Selectable } from 'kysely';
import type { Account } from '../../core/accounts/entities.js';
import type { ChatTables } from '../base/tables.js';

export type AccountStatus = 'ACTIVE' | 'DEACTIVATED' | 'BANNED';
export type AccountType = 'USER' | 'BOT' | 'SERVICE';

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

/** The columns of an accounts row its view is made of. */
export const accountColumns = [
  'id',
  'module_code',
  'customer_account_id',
  'display_name',
  'avatar_url',
  'account_type',
  'status',
  'team',
  'department',
  'role',
  'tags',
  'email',
  'username',
  'created_at',
  'updated_at',
] as const;

export type AccountRow = Pick<Selectable<ChatTables['accounts']>, (typeof accountColumns)[number]>;

export function accountRowView(r: AccountRow): AccountView {
  return {
    id: r.id,
    moduleCode: r.module_code,
    customerAccountId: r.customer_account_id,
    displayName: r.display_name,
    avatarUrl: r.avatar_url,
    accountType: r.account_type as AccountType,
    status: r.status as AccountStatus,
    metadata: { team: r.team, department: r.department, role: r.role, tags: [...(r.tags as string[])] },
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
