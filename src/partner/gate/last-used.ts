// Last-used times of API keys, collected in memory and written in one statement every few seconds, so that no
// request of the hot path waits on a write. Several nodes may write the same key: the later time wins.
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import type { Logger } from '../../platform/logger.js';
import { recordKeysUsed } from './queries.js';

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
      await recordKeysUsed(this.sql, [...batch.keys()], [...batch.values()]);
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
