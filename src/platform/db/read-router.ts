// Routes the reads that may go to a replica: to a replica in rotation that has replayed the caller's own last write,
// else to the primary. A caller's write position is taken right after each request of theirs that may have written
// (rememberWrite) and kept in Redis, so the caller's next read on any node sees that write.
import { walInsertPosition } from './server-state.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { routedReads } from '../metrics/replicas.js';
import { parseLsn } from './lsn.js';
import type { Replica, ReplicaSet } from './replica-set.js';
import type { SqlPool } from './sql.js';
import type { WritePositions } from './write-positions.js';

/**
 * Who the current request acts for ("account:<id>", "key:<id>") and whether it is read-only (GET, HEAD), set by the
 * listener for the handler's duration. A request that may write reads on the primary throughout: its own writes are
 * not remembered until it answers.
 */
export const readCaller = new AsyncLocalStorage<{ caller: string | undefined; readOnly: boolean }>();

/** Connection failures and time-outs: the replica is the problem, and the read is run again on the primary. */
function isUnavailable(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  if (
    typeof code === 'string' &&
    (/^(ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH)/.test(code) || code.startsWith('08') || code === '57P01' || code === '57P03')
  )
    return true;
  const message = err instanceof Error ? err.message : '';
  return /timeout|Connection terminated/i.test(message);
}

export class ReadRouter {
  private next = 0;

  constructor(
    readonly primary: SqlPool,
    readonly replicas: ReplicaSet,
    private readonly positions: WritePositions,
  ) {}

  /** The pool for a read by this caller (undefined: a caller with no writes of their own). */
  async pool(caller: string | undefined): Promise<SqlPool> {
    const inRotation = this.replicas.replicas.filter((r) => r.inRotation);
    if (inRotation.length === 0) return this.onPrimary('primary_no_replica');
    let needed: bigint | null = null;
    if (caller !== undefined) {
      try {
        needed = await this.positions.lastOf(caller);
      } catch {
        // Without the caller's position no replica is known to have their writes.
        return this.onPrimary('primary_position_unknown');
      }
    }
    const caughtUp = needed === null ? inRotation : inRotation.filter((r) => r.replayLsn !== null && r.replayLsn >= needed);
    if (caughtUp.length === 0) return this.onPrimary('primary_behind');
    const replica = caughtUp[this.next++ % caughtUp.length]!;
    routedReads.inc({ target: 'replica' });
    return this.withFallback(replica);
  }

  /** Records the primary's WAL position as the caller's last write: call once the caller's writes have committed. */
  async rememberWrite(caller: string): Promise<void> {
    // The insert position is at or past the end of every commit record already written, whatever synchronous_commit.
    await this.positions.remember(caller, parseLsn(await walInsertPosition(this.primary))!);
  }

  private onPrimary(target: string): SqlPool {
    routedReads.inc({ target });
    return this.primary;
  }

  /**
   * The replica's pool, whose query() runs the statement again on the primary when the replica turns out to be
   * unreachable (stopped since the last poll): the read is answered, and the replica leaves the rotation at once.
   */
  private withFallback(replica: Replica): SqlPool {
    const primary = this.primary;
    const replicas = this.replicas;
    return new Proxy(replica.pool, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
        return async (...args: Parameters<pg.Pool['query']>) => {
          try {
            return await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
          } catch (err) {
            if (!isUnavailable(err)) throw err;
            replicas.failed(replica, err);
            routedReads.inc({ target: 'primary_replica_failed' });
            return (primary.query as (...a: unknown[]) => Promise<unknown>)(...args);
          }
        };
      },
    });
  }
}

/**
 * The pool a read-only operation runs on: one of DATABASE_READ_URLS when the router finds a replica that has the
 * current caller's writes, else the primary. Outside a read-only request (workers, sweeps, any request that may write)
 * and without replicas: the primary.
 * Never for a read inside a write transaction: that runs on the transaction's own client.
 */
export async function readPool(deps: { sql: SqlPool; reads?: ReadRouter }): Promise<SqlPool> {
  const scope = readCaller.getStore();
  if (!deps.reads || !scope?.readOnly) return deps.sql;
  return deps.reads.pool(scope.caller);
}
