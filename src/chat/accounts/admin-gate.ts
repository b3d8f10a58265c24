// Who may administer accounts (register, status, metadata): a platform administrator, for every account, or a
// module's own token, for the accounts of its module and customer. A module's own token is one whose subject is a
// SERVICE account of that module and customer (docs/auth.md): a USER's token, handed to a browser, never gets
// the power to register or ban colleagues. The check runs right after authentication, before the body is read,
// on the operations the spec marks `x-account-admin`.
import type { Runner } from '../../platform/db/typed.js';
import type { Caller } from '../base/context.js';
import { chatError } from '../base/errors.js';
import { accountTypeOf } from './queries.js';

/** The accounts a caller may administer: every one (null), or those of one module and customer. */
export type AccountScope = { moduleCode: string; customerAccountId: string } | null;

export const accountScopeOf = (caller: Caller): AccountScope =>
  caller.platformAdmin ? null : { moduleCode: caller.moduleCode, customerAccountId: caller.customerAccountId };

/** Operations whose spec carries `x-account-admin: true`. */
export function accountAdminOperations(spec: Record<string, unknown>): Set<string> {
  const result = new Set<string>();
  for (const item of Object.values(
    (spec.paths ?? {}) as Record<string, Record<string, { operationId?: string; 'x-account-admin'?: unknown }>>,
  )) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId && op['x-account-admin'] === true) result.add(op.operationId);
    }
  }
  return result;
}

/** Refuses (403 account_admin_required) a caller that is neither a platform administrator nor a SERVICE account. */
export async function requireAccountAdmin(db: Runner, caller: Caller): Promise<void> {
  if (caller.platformAdmin) return;
  const row = await accountTypeOf(db, caller.accountId);
  if (row?.account_type !== 'SERVICE') {
    throw chatError(
      403,
      'account_admin_required',
      "Only a platform administrator or a SERVICE account of the account's module and customer may administer accounts.",
    );
  }
}
