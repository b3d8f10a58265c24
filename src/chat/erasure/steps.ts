// The steps of one erasure job. Each runs in its own short transaction that first locks the job row and reads its
// progress there, and records the progress it made in the same transaction: a step done is never done again, and
// one interrupted (a worker stopped) is rolled back whole and done by whichever worker takes the job next. Work
// outside the database (the media store, Redis) is idempotent and comes after the commit that made it due.
import { inTransaction } from '../../platform/db/sql.js';
import { emit, roomAudience } from '../events/emit.js';
import { PresenceStore } from '../presence/store.js';
import { blankProfile, deleteExports, deleteOwnedThings, deleteTimedThings, deleteUploads, uploadBatch } from './data-queries.js';
import type { ErasureDeps } from './deps.js';
import { anonymizeMessages, messageBatch, messageIdsOf } from './message-queries.js';
import { advanceJob, finishJob, lockJob } from './queries.js';

/** The text an anonymised message shows instead of its own (docs/adr/0156-account-erasure.md). */
export const tombstone = 'This message was deleted with its author’s account.';

/** How long a claimed job belongs to its worker; a step extends it. */
export const erasureLeaseMs = 60_000;

const leaseFrom = (deps: ErasureDeps) => new Date(deps.clock.now().getTime() + erasureLeaseMs);

/** The profile and every personal thing the account owns; presence is forgotten first (Redis, idempotent). */
export async function profileStep(deps: ErasureDeps, jobId: string, accountId: string): Promise<void> {
  await new PresenceStore(deps.redis).forget(accountId);
  await inTransaction(deps.sql, async (client) => {
    const job = await lockJob(client, jobId);
    if (job?.step !== 'profile') return;
    await blankProfile(client, accountId, deps.clock.now());
    await deleteOwnedThings(client, accountId);
    await deleteTimedThings(client, accountId);
    await advanceJob(client, jobId, 'messages', null, leaseFrom(deps));
  });
  // Authentication refuses the account since the request; its views now read the emptied row.
  await deps.accounts.invalidate(accountId);
}

/** Per room, the changed ids in a stable order. */
function byRoom(changed: ReadonlyArray<{ id: string; room_id: string }>): Map<string, string[]> {
  const rooms = new Map<string, string[]>();
  for (const row of changed) rooms.set(row.room_id, [...(rooms.get(row.room_id) ?? []), row.id]);
  for (const ids of rooms.values()) ids.sort();
  return rooms;
}

/** One batch of the account's messages anonymised, with one event per room; the cursor moves past the batch. */
export async function anonymizeStep(deps: ErasureDeps, jobId: string, accountId: string): Promise<void> {
  await inTransaction(deps.sql, async (client) => {
    const job = await lockJob(client, jobId);
    if (job?.step !== 'messages') return;
    const ids = await messageIdsOf(client, accountId, job.cursor);
    const changed = await anonymizeMessages(client, accountId, ids, tombstone);
    for (const [roomId, messageIds] of byRoom(changed)) {
      await emit(client, 'message.anonymized', { roomId, senderId: accountId, messageIds, text: tombstone }, roomAudience(roomId));
    }
    const last = ids.at(-1) ?? null;
    await advanceJob(
      client,
      jobId,
      ids.length < messageBatch ? 'uploads' : 'messages',
      ids.length < messageBatch ? null : last,
      leaseFrom(deps),
    );
  });
}

/**
 * One batch of the account's uploads: rows deleted, then their bytes. The last batch also takes the account's personal
 * exports (rows, then archives), and the job is finished only once their bytes are gone, so `done` means gone.
 */
export async function uploadsStep(deps: ErasureDeps, jobId: string, accountId: string): Promise<void> {
  const batch = await inTransaction(deps.sql, async (client) => {
    const job = await lockJob(client, jobId);
    if (job?.step !== 'uploads') return null;
    const ids = await deleteUploads(client, accountId);
    const last = ids.length < uploadBatch;
    const exports = last ? await deleteExports(client, accountId) : [];
    await advanceJob(client, jobId, 'uploads', null, leaseFrom(deps));
    return { removed: [...ids, ...exports], last };
  });
  if (!batch) return;
  for (const id of batch.removed) await deps.media.remove(id);
  if (!batch.last) return;
  await inTransaction(deps.sql, async (client) => {
    if ((await lockJob(client, jobId))?.step === 'uploads') await finishJob(client, jobId, deps.clock.now());
  });
}
