// message.read events: a read that passes others' messages leaves a notice per (room, sender) due at the end of a
// 2 s window (src/chat/rooms/personal-queries.ts); this task sends the due ones, one event each, so a sender hears
// of reads at most once per room every 2 s whatever the number of nodes. The notices are rows, so a worker that dies
// leaves them for the next run; two workers skip each other's rows.
import { inTransaction, type SqlPool } from '../../platform/db/sql.js';
import type { Clock } from '../../platform/clock.js';
import type { PruneTask } from '../../platform/queues.js';
import { accountsAudience, emit } from '../events/emit.js';
import { takeDueNotices } from './notice-queries.js';

const batch = 200;
/** Batches per run: a run stays short, and the next one (a second later) takes the rest. */
const batchesPerRun = 5;

/** Sends the notices due by `now`; returns how many events were written. */
export async function sendDueNotices(sql: SqlPool, now: Date): Promise<number> {
  let sent = 0;
  for (let i = 0; i < batchesPerRun; i++) {
    const taken = await inTransaction(sql, async (client) => {
      const due = await takeDueNotices(client, now, batch);
      for (const n of due) {
        // no reader left who shares (they left, or stopped sharing within the window): nothing to tell
        if (n.last_read_seq === null) continue;
        await emit(
          client,
          'message.read',
          { roomId: n.room_id, accountId: n.sender_id, lastReadSeq: n.last_read_seq },
          accountsAudience([n.sender_id]),
        );
        sent++;
      }
      return due.length;
    });
    if (taken < batch) break;
  }
  return sent;
}

/** Every second on the maintenance queue; the time is the platform's clock, so tests with a frozen clock decide it. */
export function readNoticesTask(sql: SqlPool, clock: Clock): PruneTask {
  return { scheduler: 'read-notices', job: 'send-read-notices', everyMs: 1000, run: () => sendDueNotices(sql, clock.now()) };
}
