// Last-used times of API keys, collected in memory and written in one statement every few seconds, so that no
// request of the hot path waits on a write. Several nodes may write the same key: the later time wins.
import type { Clock } from '../../platform/clock.js';
import { sql } from 'kysely';
import type { SqlPool } from '../../platform/db/sql.js';
import { affected } from '../../platform/db/typed.js';
import type { Logger } from '../../platform/logger.js';
import { partnerDb } from '../base/tables.js';

export class LastUsedRecorder {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sql: SqlPool,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  touch(keyId: string): void {
    this.pending.set(keyId, this.clock.now());
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch((err) => this.log.warn({ err }, 'could not record API key use')), intervalMs);
    this.timer.unref();
  }

  /** Writes what was collected; on failure the times are kept for the next attempt. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      const used = sql<{ id: string; at: Date }>`unnest(${[...batch.keys()]}::uuid[], ${[...batch.values()]}::timestamptz[])`.as<'v'>(
        sql`v(id, at)`,
      );
      await affected(
        this.sql,
        partnerDb
          .updateTable('api_keys as k')
          .from(used)
          .set({ last_used_at: sql`greatest(k.last_used_at, v.at)` })
          .whereRef('k.id', '=', 'v.id'),
      );
    } catch (err) {
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      throw err;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch((err) => this.log.warn({ err }, 'could not record API key use at shutdown'));
  }
}
