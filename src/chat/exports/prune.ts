// Exports are removed 7 days after they were started: first the archive's bytes in the media store, then the row,
// so a failure between the two leaves a row that the next run removes again.
import type { PruneTask } from '../../platform/queues.js';
import type { ExportJobDeps } from './job.js';
import { deleteExports, exportsBefore } from './queries.js';

export const exportRetentionMs = 7 * 24 * 3_600_000;
const batch = 100;

export async function pruneExports(deps: Pick<ExportJobDeps, 'sql' | 'clock' | 'media'>): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - exportRetentionMs);
  let removed = 0;
  for (;;) {
    const old = await exportsBefore(deps.sql, cutoff, batch);
    for (const { id } of old) await deps.media.remove(id);
    removed += await deleteExports(
      deps.sql,
      old.map((o) => o.id),
    );
    if (old.length < batch) return removed;
  }
}

/** Registered with the maintenance queue every hour. */
export function exportPruneTask(deps: Pick<ExportJobDeps, 'sql' | 'clock' | 'media'>): PruneTask {
  return { scheduler: 'exports-prune', job: 'prune-exports', everyMs: 3_600_000, run: () => pruneExports(deps) };
}
