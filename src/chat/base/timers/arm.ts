// Timers in Redis: BullMQ delayed "due" jobs on the `time` queue, one per 100 ms slice that holds a due instant. A
// job only says "look now": PostgreSQL decides what is due (src/chat/time/worker.ts), so a lost, early, late or
// repeated job changes nothing but timing, and the periodic sweep covers jobs that never arrive. Sharing one job per
// slice turns a crowd of timers due together into a few batches instead of a transaction each.
import type { Clock } from '../../../platform/clock.js';
import type { Queues } from '../../../platform/queues.js';

export const timerSliceMs = 100;

export interface TimerData {
  /** The end of the slice, epoch ms: everything due by then is fired by the job. */
  at: number;
}

/**
 * Adds the job of the slice that holds `at` (by the injected clock: the delay is `slice end - clock.now()`). The job
 * id names the slice, so every timer of a slice makes one job; a moved time arms its new slice while the old job finds
 * nothing due. `attempt` makes a new job for a slice whose job already ran early. Never throws: without Redis the
 * sweep fires the rows when they are due.
 */
export async function armTimer(queues: Queues, clock: Clock, at: Date, attempt?: number): Promise<void> {
  const sliceEnd = Math.ceil(at.getTime() / timerSliceMs) * timerSliceMs;
  const delay = Math.max(0, sliceEnd - clock.now().getTime());
  const data: TimerData = { at: sliceEnd };
  try {
    await queues.time.add('due', data, { jobId: `due-${sliceEnd}${attempt === undefined ? '' : `-${attempt}`}`, delay });
  } catch {
    // The sweep catches up (SCHEDULE_SWEEP_MS).
  }
}
