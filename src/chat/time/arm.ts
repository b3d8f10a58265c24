// Timers in Redis: one BullMQ delayed job per scheduled message and per reminder occurrence. The job only says
// "look now"; PostgreSQL decides what is due (src/chat/time/fire.ts), so a lost, early, late or repeated job
// changes nothing but timing, and the periodic sweep covers jobs that never arrive.
import type { Clock } from '../../platform/clock.js';
import type { Queues } from '../../platform/queues.js';

export type TimerKind = 'scheduled' | 'reminder';

export interface TimerData {
  id: string;
  /** The instant the row was due when the job was added (ISO 8601). */
  at: string;
}

/**
 * Adds the job due at `at` by the injected clock. The job id names the row and the instant, so arming the same
 * timer twice (a retried request, a re-arm) makes one job, and a moved time makes a new one while the old one
 * finds nothing due. Never throws: without Redis the sweep fires the row when it is due.
 */
export async function armTimer(queues: Queues, clock: Clock, kind: TimerKind, id: string, at: Date, attempt?: number): Promise<void> {
  const delay = Math.max(0, at.getTime() - clock.now().getTime());
  const data: TimerData = { id, at: at.toISOString() };
  const jobId = `${kind}-${id}-${at.getTime()}${attempt === undefined ? '' : `-${attempt}`}`;
  try {
    await queues.time.add(kind, data, { jobId, delay });
  } catch {
    // The sweep catches up (SCHEDULE_SWEEP_MS).
  }
}
