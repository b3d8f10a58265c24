// Statements about the server rather than a table (WAL positions, recovery, settings, backups): typed like every other
// statement, with the server's functions as fragments and no table to check them against.
import { sql } from 'kysely';
import { firstRow, rows, typedQueries, type Runner } from './typed.js';

const server = typedQueries<object>();

/** Answers when the server does: the readiness probe. */
export async function ping(db: Runner): Promise<void> {
  await rows(db, server.selectNoFrom(sql<number>`1`.as('ok')));
}

/** The primary's WAL insert position: at or past the end of every commit record already written. */
export async function walInsertPosition(db: Runner): Promise<string> {
  return (await firstRow(db, server.selectNoFrom(sql<string>`pg_current_wal_insert_lsn()::text`.as('lsn'))))!.lsn;
}

/** The primary's WAL write position. */
export async function walWritePosition(db: Runner): Promise<string> {
  return (await firstRow(db, server.selectNoFrom(sql<string>`pg_current_wal_lsn()::text`.as('lsn'))))!.lsn;
}

/** A standby's replay position (null when it replays nothing) and whether it is in recovery at all. */
export async function replayState(db: Runner): Promise<{ replay: string | null; standby: boolean }> {
  const query = server.selectNoFrom([
    sql<string | null>`pg_last_wal_replay_lsn()::text`.as('replay'),
    sql<boolean>`pg_is_in_recovery()`.as('standby'),
  ]);
  return (await firstRow(db, query))!;
}

/** A server setting as text (current_setting). */
export async function setting(db: Runner, name: string): Promise<string> {
  return (await firstRow(db, server.selectNoFrom(sql<string>`current_setting(${name})`.as('value'))))!.value;
}

/** A base backup taken by copying the data folder: start it, copy, then stop it for the backup label to write. */
export const baseBackup = {
  /** A physical replication slot kept from now on, so every WAL segment from the backup's start stays. */
  async createSlot(db: Runner, slot: string): Promise<void> {
    await rows(db, server.selectNoFrom(sql`pg_create_physical_replication_slot(${slot}, true)`.as('slot')));
  },
  async start(db: Runner, label: string): Promise<void> {
    await rows(db, server.selectNoFrom(sql`pg_backup_start(${label}, true)`.as('lsn')));
  },
  async stop(db: Runner): Promise<{ labelfile: string; spcmapfile: string | null }> {
    const query = server
      .selectFrom(sql<{ labelfile: string; spcmapfile: string | null }>`pg_backup_stop(false)`.as('b'))
      .select(['b.labelfile', 'b.spcmapfile']);
    return (await firstRow(db, query))!;
  },
};
