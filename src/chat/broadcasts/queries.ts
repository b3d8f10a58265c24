// The statements of broadcasts, of the caller's feed of them and of its read mark.
import { sql, type ExpressionBuilder } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { ChatTables } from '../base/tables.js';
import { chatDb } from '../base/tables.js';
import type { BroadcastRow } from './views.js';

/** The columns of a broadcast its views are made of. */
const broadcastColumns = ['b.id', 'b.seq', 'b.title', 'b.text', 'b.modules', 'b.created_by', 'b.created_at'] as const;

/**
 * Broadcasts addressed to the caller: to every module or to the caller's module, sent at or after the caller's
 * account was registered (accounts row `me`).
 */
const addressedTo =
  (moduleCode: string) => (eb: ExpressionBuilder<{ b: ChatTables['broadcasts']; me: ChatTables['accounts'] }, 'b' | 'me'>) =>
    eb.and([
      eb.or([eb('b.modules', 'is', null), sql<boolean>`${moduleCode}::text = any(b.modules)`]),
      eb('b.created_at', '>=', eb.ref('me.created_at')),
    ]);

// Broadcast creations take this transaction-scoped advisory lock, so that they commit in seq order and a read mark
// at seq n never passes over a broadcast with a lower seq that commits later.
const CREATION_LOCK = 0x62726f61;

/** Those of the module codes that name a module. */
export async function knownModules(db: Runner, modules: string[]): Promise<string[]> {
  const found = await rows(
    db,
    chatDb
      .selectFrom('modules')
      .select('code')
      .where(sql<boolean>`code = any(${modules}::text[])`),
  );
  return found.map((r) => r.code);
}

/** Creations one after another until commit (CREATION_LOCK). */
export async function lockBroadcastCreation(client: SqlClient): Promise<void> {
  await affected(client, chatDb.selectNoFrom(sql`pg_advisory_xact_lock(${CREATION_LOCK})`.as('locked')));
}

export async function insertBroadcast(
  client: SqlClient,
  broadcast: { id: string; title: string | null; text: string; modules: string[] | null; createdBy: string; at: Date },
): Promise<BroadcastRow | undefined> {
  return firstRow(
    client,
    chatDb
      .insertInto('broadcasts')
      .values({
        id: broadcast.id,
        title: broadcast.title,
        text: broadcast.text,
        modules: broadcast.modules,
        created_by: broadcast.createdBy,
        created_at: broadcast.at,
      })
      .returning(['id', 'seq', 'title', 'text', 'modules', 'created_by', 'created_at']),
  );
}

/** `count` broadcasts addressed to the caller, newest first, below seq `before` when given, each with its read state. */
export async function broadcastFeed(
  db: Runner,
  caller: { accountId: string; moduleCode: string },
  before: number | null,
  count: number,
): Promise<Array<BroadcastRow & { read: boolean }>> {
  return rows(
    db,
    chatDb
      .selectFrom('accounts as me')
      .leftJoin('broadcast_reads as r', 'r.account_id', 'me.id')
      .innerJoin('broadcasts as b', (j) => j.on(addressedTo(caller.moduleCode)))
      .select(broadcastColumns)
      .select(sql<boolean>`b.seq <= coalesce(r.last_read_seq, 0)`.as('read'))
      .where('me.id', '=', caller.accountId)
      .$if(before !== null, (q) => q.where('b.seq', '<', before!))
      .orderBy('b.seq', 'desc')
      .limit(count),
  );
}

/** The seq of broadcast `id` addressed to the caller, or of the newest one when null; null when there is none. */
export async function addressedSeq(
  client: SqlClient,
  caller: { accountId: string; moduleCode: string },
  id: string | null,
): Promise<number | null> {
  const addressed = chatDb
    .selectFrom('accounts as me')
    .innerJoin('broadcasts as b', (j) => j.on(addressedTo(caller.moduleCode)))
    .where('me.id', '=', caller.accountId);
  const target = await firstRow<{ seq: number | null }>(
    client,
    id === null ? addressed.select((eb) => eb.fn.max('b.seq').as('seq')) : addressed.select('b.seq').where('b.id', '=', id),
  );
  return target?.seq ?? null;
}

/** Moves the account's read mark to seq unless it is there or beyond; true when it moved. */
export async function advanceReadMark(client: SqlClient, accountId: string, seq: number, at: Date): Promise<boolean> {
  const written = await affected(
    client,
    chatDb
      .insertInto('broadcast_reads')
      .values({ account_id: accountId, last_read_seq: seq, updated_at: at })
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet((eb) => ({ last_read_seq: eb.ref('excluded.last_read_seq'), updated_at: eb.ref('excluded.updated_at') }))
          .where('broadcast_reads.last_read_seq', '<', (eb) => eb.ref('excluded.last_read_seq')),
      ),
  );
  return written > 0;
}

export async function broadcastIdAt(client: SqlClient, seq: number): Promise<string | undefined> {
  return (await firstRow(client, chatDb.selectFrom('broadcasts').select('id').where('seq', '=', seq)))?.id;
}

/** The read mark and the number of broadcasts addressed to the caller after it. */
export async function readMarkOf(db: Runner, caller: { accountId: string; moduleCode: string }) {
  return firstRow(
    db,
    chatDb
      .selectFrom('accounts as me')
      .leftJoin('broadcast_reads as r', 'r.account_id', 'me.id')
      .select((eb) => [
        eb.selectFrom('broadcasts').select('id').whereRef('seq', '=', 'r.last_read_seq').$asScalar().as('last_read_id'),
        eb
          .selectFrom('broadcasts as b')
          .select(sql<number>`count(*)::int`.as('n'))
          .where(addressedTo(caller.moduleCode))
          .where(sql<boolean>`b.seq > coalesce(r.last_read_seq, 0)`)
          .$asScalar()
          .as('unread_count'),
      ])
      .where('me.id', '=', caller.accountId),
  );
}

const caller = { accountId: example.id, moduleCode: 'M1' };

export const examples: QueryExamples = {
  knownModules: (db) => knownModules(db, ['M1', 'M2']),
  lockBroadcastCreation: (db) => lockBroadcastCreation(db),
  insertBroadcast: (db) =>
    insertBroadcast(db, {
      id: example.id,
      title: example.text,
      text: example.text,
      modules: ['M1'],
      createdBy: example.otherId,
      at: example.at,
    }),
  broadcastFeed: (db) => broadcastFeed(db, caller, 10, 51),
  addressedSeq: async (db) => {
    await addressedSeq(db, caller, example.otherId);
    await addressedSeq(db, caller, null);
  },
  advanceReadMark: (db) => advanceReadMark(db, example.id, 7, example.at),
  broadcastIdAt: (db) => broadcastIdAt(db, 7),
  readMarkOf: (db) => readMarkOf(db, caller),
};
