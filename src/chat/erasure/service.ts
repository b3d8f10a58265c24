// Account erasure requests: the account is refused from this commit on (status ERASED), the job row is the audit
// record, and a repeated request answers the first one's job (docs/adr/0156-account-erasure.md).
import { randomUUID } from 'node:crypto';
import { inTransaction } from '../../platform/db/sql.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { AccountScope } from '../accounts/admin-gate.js';
import { erasureJobName } from './job.js';
import { erasureInScope, erasureOfAccount, insertErasure, lockAccountForErasure, markAccountErased, type ErasureMode } from './queries.js';
import { erasureView, type ErasureView } from './views.js';

const inScope = (scope: AccountScope, a: { module_code: string; customer_account_id: string }) =>
  scope === null || (a.module_code === scope.moduleCode && a.customer_account_id === scope.customerAccountId);

export class ErasureService {
  constructor(private readonly deps: Pick<ChatDeps, 'sql' | 'clock' | 'queues' | 'accounts'>) {}

  /**
   * Marks the account erased and records the job in one transaction; after the commit every node drops the
   * account's cached status (the very next request with its token is refused) and the job is started. A repeat
   * does both again (a retry after a failed publish still reaches every node) and creates nothing.
   */
  async erase(accountId: string, messages: ErasureMode, erasedBy: string, scope: AccountScope): Promise<ErasureView> {
    const row = await inTransaction(this.deps.sql, async (client) => {
      const account = await lockAccountForErasure(client, accountId);
      if (!account || !inScope(scope, account)) throw chatErrors.notFound('Account', 'account_not_found');
      const existing = await erasureOfAccount(client, account.id);
      if (existing) return existing;
      const at = this.deps.clock.now();
      await markAccountErased(client, account.id, at);
      await emit(
        client,
        'account.status_changed',
        { accountId: account.id, from: account.status, to: 'ERASED' },
        accountsAudience([account.id]),
      );
      await insertErasure(client, { id: randomUUID(), accountId: account.id, erasedBy, messages, at });
      return (await erasureOfAccount(client, account.id))!;
    });
    await this.deps.accounts.invalidate(row.account_id);
    if (row.state !== 'done') await this.deps.queues.maintenance.add(erasureJobName, {}, { removeOnComplete: true, removeOnFail: 100 });
    return erasureView(row);
  }

  /** An erasure whose account is within the caller's scope; any other is 404 erasure_not_found. */
  async get(id: string, scope: AccountScope): Promise<ErasureView> {
    const row = await erasureInScope(this.deps.sql, id, scope);
    if (!row) throw chatErrors.notFound('Erasure', 'erasure_not_found');
    return erasureView(row);
  }
}
