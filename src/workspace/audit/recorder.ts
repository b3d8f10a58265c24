// The audit log of requests made with keys, collected in memory and written in batches, so that no request waits
// on a database write: every SVC_AUDIT_FLUSH_MS, as soon as a batch is full, and at shutdown (the approach of the
// partner's last-used recorder). The same flush records each key's last use.
import type { SqlPool } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Logger } from '../../platform/logger.js';
import { insertAuditEntries, recordSvcKeysUsed } from './queries.js';

export interface AuditEntry {
  keyId: string;
  workspaceId: string;
  time: Date;
  ip: string;
  method: string;
  endpoint: string;
  statusCode: number;
}

/** Entries per insert statement; a full batch is written at once instead of waiting for the interval. */
const batchSize = 1000;
/** While the database is unreachable entries are kept up to this many; beyond it the oldest are dropped. */
const maxPending = 100_000;
/** Longest endpoint stored: paths are bounded by the listener, this only caps an abusive one. */
const maxEndpoint = 2048;

export class AuditRecorder {
  private pending: Array<AuditEntry & { id: string }> = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly sql: SqlPool,
    private readonly log: Logger,
  ) {}

  record(entry: AuditEntry): void {
    // The id is fixed here so that a batch written again after a partial failure inserts nothing twice.
    this.pending.push({ ...entry, id: newId(), endpoint: entry.endpoint.slice(0, maxEndpoint) });
    if (this.pending.length > maxPending) {
      const dropped = this.pending.length - maxPending;
      this.pending.splice(0, dropped);
      this.log.warn({ dropped }, 'audit log buffer full; oldest entries dropped');
    }
    if (this.pending.length >= batchSize && !this.flushing)
      void this.flush().catch((err) => this.log.warn({ err }, 'could not write the audit log'));
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch((err) => this.log.warn({ err }, 'could not write the audit log')), intervalMs);
    this.timer.unref();
  }

  /** Writes everything collected so far; concurrent calls share one write, then write what arrived meanwhile. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
    if (this.pending.length === 0) return;
    this.flushing = this.writeAll().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async writeAll(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, batchSize);
      try {
        await this.write(batch);
      } catch (err) {
        // Kept for the next attempt, ahead of what arrived meanwhile.
        this.pending.unshift(...batch);
        throw err;
      }
    }
  }

  private async write(batch: Array<AuditEntry & { id: string }>): Promise<void> {
    await insertAuditEntries(this.sql, batch);
    const lastUse = new Map<string, Date>();
    for (const e of batch) {
      const seen = lastUse.get(e.keyId);
      if (!seen || seen < e.time) lastUse.set(e.keyId, e.time);
    }
    // Several nodes may report a key: the later time wins.
    await recordSvcKeysUsed(this.sql, [...lastUse.keys()], [...lastUse.values()]);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch((err) => this.log.warn({ err }, 'could not write the audit log at shutdown'));
  }

  /** Entries waiting to be written (tests, diagnostics). */
  get size(): number {
    return this.pending.length;
  }
}
