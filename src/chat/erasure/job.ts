// The erasure job on the maintenance queue (src/platform/queues.ts): a request adds one run at once, and the
// scheduler runs it every few seconds, so a job still queued, or left running by a worker that stopped (its lease
// ran out), is taken up and resumed from the progress its row keeps. One run does bounded work and returns.
import { inTransaction } from '../../platform/db/sql.js';
import type { PruneTask } from '../../platform/queues.js';
import type { ErasureDeps } from './deps.js';
import { claimErasure, releaseJob, stepOf, type ErasureStep } from './queries.js';
import { anonymizeStep, erasureLeaseMs, profileStep, uploadsStep } from './steps.js';
import { deleteStep } from './delete-step.js';

/** The maintenance job's name; a request adds one so that its job starts at once. */
export const erasureJobName = 'erase-accounts';
/** About how long one run works before it lets the job go for the next run. */
const budgetMs = 2_000;

type Claimed = { id: string; account_id: string; messages: string };

async function runStep(deps: ErasureDeps, job: Claimed, step: ErasureStep): Promise<void> {
  if (step === 'profile') return profileStep(deps, job.id, job.account_id);
  if (step === 'uploads') return uploadsStep(deps, job.id, job.account_id);
  return job.messages === 'delete' ? deleteStep(deps, job.id, job.account_id) : anonymizeStep(deps, job.id, job.account_id);
}

/** Works on claimed jobs until none is left or the budget is spent; returns the steps done. */
export async function runErasures(deps: ErasureDeps, budget = budgetMs): Promise<number> {
  const started = performance.now();
  let steps = 0;
  while (performance.now() - started < budget) {
    const now = deps.clock.now();
    const job = await inTransaction(deps.sql, (client) => claimErasure(client, now, new Date(now.getTime() + erasureLeaseMs)));
    if (!job) break;
    let step = job.step as ErasureStep | null;
    while (step !== null && performance.now() - started < budget) {
      await runStep(deps, job, step);
      steps += 1;
      step = await currentStep(deps, job.id);
    }
    // Out of time with the job unfinished: its lease ends now, so the next run takes it up where it stopped.
    if (step !== null) await inTransaction(deps.sql, (client) => releaseJob(client, job.id, deps.clock.now()));
  }
  return steps;
}

/** The job's next step; null once it is no longer running (done, or taken by another worker and finished). */
async function currentStep(deps: ErasureDeps, jobId: string): Promise<ErasureStep | null> {
  return (await stepOf(deps.sql, jobId)) ?? null;
}

/** Registered with the maintenance queue: every five seconds, and once at each request. */
export function erasureTask(deps: ErasureDeps): PruneTask {
  return { scheduler: 'account-erasures', job: erasureJobName, everyMs: 5_000, run: () => runErasures(deps) };
}
