// Delete mode: the account's messages are deleted for good, in batches, by the expiry's expunge (which deletes what
// hangs off them, corrects counts and banners, removes uncarried bytes and emits message.expired with the reason
// "erasure"). Each batch is the account's messages still there, so a batch repeated after a stop, or taken by two
// workers at once, deletes each message once: expunge skips ids already gone.
import { inTransaction } from '../../platform/db/sql.js';
import { expungeMessages } from '../expiry/expunge.js';
import type { ErasureDeps } from './deps.js';
import { messageBatch, messageIdsOf } from './message-queries.js';
import { advanceJob, lockJob } from './queries.js';
import { erasureLeaseMs } from './steps.js';

export async function deleteStep(deps: ErasureDeps, jobId: string, accountId: string): Promise<void> {
  const ids = await messageIdsOf(deps.sql, accountId, null);
  if (ids.length > 0) await expungeMessages(deps, ids, 'erasure');
  await inTransaction(deps.sql, async (client) => {
    const job = await lockJob(client, jobId);
    if (job?.step !== 'messages') return;
    const lease = new Date(deps.clock.now().getTime() + erasureLeaseMs);
    await advanceJob(client, jobId, ids.length < messageBatch ? 'uploads' : 'messages', null, lease);
  });
}
