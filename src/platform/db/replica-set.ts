// The read replicas of DATABASE_READ_URLS and their health. One poll every REPLICA_POLL_MS per node (never per
// request) reads the primary's WAL position and each replica's replay position; a replica whose lag passes
// REPLICA_MAX_LAG_MS or REPLICA_MAX_LAG_BYTES, or whose poll fails, leaves the rotation until a poll finds it
// healthy again.
import { replayState, walWritePosition } from './server-state.js';
import type { Logger } from '../logger.js';
import { instrumentPool } from '../metrics/database.js';
import { watchReplicas, type ReplicaState } from '../metrics/replicas.js';
import { parseLsn } from './lsn.js';
import { createSqlPool, type SqlPool } from './sql.js';

export interface ReplicaSettings {
  pollMs: number;
  maxLagMs: number;
  maxLagBytes: number;
  poolMax: number;
}

export class Replica {
  inRotation = false;
  /** The last replay position a poll read: a lower bound of the replica's position until the next poll. */
  replayLsn: bigint | null = null;
  lagBytes = 0;
  lagMs = 0;
  reason = 'not polled yet';

  constructor(
    readonly name: string,
    readonly pool: SqlPool,
  ) {}

  state(): ReplicaState {
    return { name: this.name, inRotation: this.inRotation, lagBytes: this.lagBytes, lagMs: this.lagMs };
  }
}

/** Where the primary's WAL stood at a poll: the first time it was seen at that position. */
interface PrimarySample {
  at: number;
  lsn: bigint;
}

/** host:port/database, without credentials: what logs and metrics name a replica by. */
export function replicaName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

export class ReplicaSet {
  readonly replicas: Replica[];
  private readonly samples: PrimarySample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private readonly unwatch: Array<() => void> = [];
  private primaryAnswered = true;

  constructor(
    private readonly primary: SqlPool,
    urls: string[],
    private readonly settings: ReplicaSettings,
    private readonly log: Logger,
  ) {
    this.replicas = urls.map((url, i) => {
      const pool = createSqlPool(url, settings.poolMax);
      this.unwatch.push(instrumentPool(pool, `replica-${i + 1}`));
      return new Replica(replicaName(url), pool);
    });
    this.unwatch.push(watchReplicas(() => this.replicas.map((r) => r.state())));
  }

  /** Polls once now (so the replicas can take reads from the start), then every pollMs. */
  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.settings.pollMs);
    this.timer.unref();
  }

  /** One health poll; a poll still running is joined rather than doubled. */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce().finally(() => (this.polling = undefined));
    return this.polling;
  }

  /** Takes a replica out of rotation at once (a read on it failed); the next healthy poll puts it back. */
  failed(replica: Replica, err: unknown): void {
    if (replica.inRotation) this.log.warn({ replica: replica.name, err }, 'read replica out of rotation: a read failed');
    replica.inRotation = false;
    replica.reason = 'a read failed';
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.polling?.catch(() => undefined);
    for (const unwatch of this.unwatch) unwatch();
    await Promise.all(this.replicas.map((r) => r.pool.end()));
  }

  private async pollOnce(): Promise<void> {
    let primaryLsn: bigint;
    try {
      primaryLsn = parseLsn(await walWritePosition(this.primary))!;
      this.primaryAnswered = true;
    } catch (err) {
      // Without the primary's position no lag can be measured; the replicas keep their last state, and reads that
      // need the primary fail as they would without replicas. Logged once per outage, not every poll.
      if (this.primaryAnswered) this.log.warn({ err }, 'read replicas: the primary did not answer the health poll');
      this.primaryAnswered = false;
      return;
    }
    const now = Date.now();
    this.remember({ at: now, lsn: primaryLsn });
    await Promise.all(this.replicas.map((replica) => this.check(replica, primaryLsn, now)));
  }

  private remember(sample: PrimarySample): void {
    const last = this.samples[this.samples.length - 1];
    if (!last || last.lsn < sample.lsn) this.samples.push(sample);
    // Older samples only ever show a lag already past the bound: the oldest one kept within the window says as much.
    const horizon = sample.at - 2 * (this.settings.maxLagMs + this.settings.pollMs);
    while (this.samples.length > 1 && this.samples[1]!.at < horizon) this.samples.shift();
  }

  /** How long ago the primary first stood past the position: a lower bound of how old the replica's missing data is. */
  private lagMsOf(replay: bigint, now: number): number {
    const first = this.samples.find((s) => s.lsn > replay);
    return first ? now - first.at : 0;
  }

  private async check(replica: Replica, primaryLsn: bigint, now: number): Promise<void> {
    let reason: string | null = null;
    try {
      const state = await replayState(replica.pool);
      const replay = parseLsn(state.replay);
      if (!state.standby || replay === null) {
        reason = 'not a standby in recovery';
      } else {
        if (replica.replayLsn === null || replay > replica.replayLsn) replica.replayLsn = replay;
        replica.lagBytes = primaryLsn > replay ? Number(primaryLsn - replay) : 0;
        replica.lagMs = this.lagMsOf(replay, now);
        if (replica.lagBytes > this.settings.maxLagBytes) reason = `lags ${replica.lagBytes} bytes`;
        else if (replica.lagMs > this.settings.maxLagMs) reason = `lags ${replica.lagMs} ms`;
      }
    } catch (err) {
      reason = `poll failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const healthy = reason === null;
    if (healthy !== replica.inRotation) {
      if (healthy) this.log.info({ replica: replica.name }, 'read replica in rotation');
      else this.log.warn({ replica: replica.name, reason }, 'read replica out of rotation');
    }
    replica.inRotation = healthy;
    replica.reason = reason ?? 'healthy';
  }
}
