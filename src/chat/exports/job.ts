// The export job on the maintenance queue: each run claims queued exports (or ones whose worker's lease ran out, as
// after a restart), builds each archive into the media store under the export's id and marks it done while its
// lease is still the row's, so a worker that lost the row never finishes it a second time.
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import type { Logger } from '../../platform/logger.js';
import type { PruneTask } from '../../platform/queues.js';
import type { MediaStore } from '../../core/media/store.js';
import { writeWhole } from '../../core/media/write.js';
import { buildArchive } from './archive.js';
import { claimExport, failExport, finishExport } from './queries.js';

export interface ExportJobDeps {
  sql: SqlPool;
  clock: Clock;
  media: MediaStore;
  log?: Logger;
}

export const exportJobName = 'run-exports';
/** How long a claim holds an export: far longer than an archive takes, and the wait before a dead worker's is resumed. */
export const exportLeaseMs = 5 * 60_000;
/** Claims after which an export that keeps failing is given up as failed. */
export const exportMaxAttempts = 3;
/** A run starts no further export after this much time, so the queue's other tasks are not held up. */
const runBudgetMs = 2_000;

/** Writes the archive as a complete object of the media store, over whatever an earlier attempt left. */
async function storeArchive(media: MediaStore, id: string, chunks: Buffer[]): Promise<void> {
  await media.remove(id);
  await writeWhole(media, id, chunks, { fileName: `export-${id}.zip`, contentType: 'application/zip' });
}

async function runOne(deps: ExportJobDeps): Promise<boolean> {
  const now = deps.clock.now();
  const claim = await claimExport(deps.sql, now, new Date(now.getTime() + exportLeaseMs));
  if (!claim) return false;
  const leaseUntil = claim.lease_until!;
  try {
    const { chunks } = await buildArchive(deps.sql, { exportId: claim.id, accountId: claim.account_id, createdAt: claim.created_at });
    const size = chunks.reduce((n, c) => n + c.length, 0);
    await storeArchive(deps.media, claim.id, chunks);
    await finishExport(deps.sql, { id: claim.id, leaseUntil, at: deps.clock.now(), size });
  } catch (err) {
    deps.log?.error({ err, exportId: claim.id, attempt: claim.attempts }, 'an export could not be built');
    // Left running, the export is claimed again once its lease runs out; after the last attempt it fails.
    if (claim.attempts >= exportMaxAttempts) await failExport(deps.sql, { id: claim.id, leaseUntil, error: String(err) });
  }
  return true;
}

/** Builds exports until none is waiting or the run's time is spent; the number of exports worked on. */
export async function runExports(deps: ExportJobDeps): Promise<number> {
  const started = performance.now();
  let worked = 0;
  while (performance.now() - started < runBudgetMs && (await runOne(deps))) worked += 1;
  return worked;
}

/** Started at once by each new export and every few seconds by its scheduler, which resumes what a dead worker left. */
export function exportJobTask(deps: ExportJobDeps): PruneTask {
  return { scheduler: 'exports-run', job: exportJobName, everyMs: 5_000, run: () => runExports(deps) };
}
