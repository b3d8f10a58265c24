// The statements of making bot updates in the outbox drain: the bots a batch's messages and button presses reach,
// the numbering of each bot's updates under its row lock and their insert; and the pruning of old updates.
import { sql } from 'kysely';
import type { SqlClient, SqlPool } from '../../../platform/db/sql.js';
import { affected, hotRows, rows } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/**
 * The bots that are members of the events' rooms at this moment, per event (in ord order); the planner probes
 * room_members per bot, so rooms without bots cost one index lookup each.
 */
export async function messageCandidates(client: SqlClient, events: { roomIds: string[]; messageIds: string[]; ords: number[] }) {
  const { roomIds, messageIds, ords } = events;
  // A named prepared statement: its text is the same for every batch (the events are three array parameters).
  return hotRows(
    client,
    chatDb
      .selectFrom(
        sql<{
          room_id: string;
          message_id: string;
          ord: number;
        }>`unnest(${roomIds}::uuid[], ${messageIds}::uuid[], ${ords}::int[])`.as<'e'>(sql`e(room_id, message_id, ord)`),
      )
      .innerJoin('room_members as m', 'm.room_id', 'e.room_id')
      .innerJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'm.account_id').on('b.deleted_at', 'is', null))
      .leftJoin('bot_room_settings as s', (join) => join.onRef('s.bot_id', '=', 'b.id').onRef('s.room_id', '=', 'e.room_id'))
      .select((eb) => [
        'e.ord',
        'e.message_id',
        'b.id as bot_id',
        'b.account_id',
        'b.username',
        eb.fn.coalesce('s.read_all', eb.lit(false)).as('read_all'),
        'b.allowed_updates',
      ])
      .orderBy('e.ord')
      .orderBy('b.id'),
  );
}

/** The presses of live bots' buttons with the presser as Telegram shows it, in ord order. */
export async function callbackPresses(client: SqlClient, events: { ids: string[]; ords: number[] }) {
  return rows(
    client,
    chatDb
      .selectFrom(
        sql<{
          id: string;
          ord: number;
        }>`unnest(${events.ids}::uuid[], ${events.ords}::int[])`.as<'e'>(sql`e(id, ord)`),
      )
      .innerJoin('bot_callback_queries as q', 'q.id', 'e.id')
      .innerJoin('bots as b', (join) => join.onRef('b.id', '=', 'q.bot_id').on('b.deleted_at', 'is', null))
      .innerJoin('accounts as a', 'a.id', 'q.account_id')
      .select([
        'e.ord',
        'q.id',
        'q.bot_id',
        'q.message_id',
        'q.data',
        'q.account_id',
        'a.bot_api_id as account_api_id',
        'a.display_name',
        'a.account_type',
        'q.room_id',
        'b.allowed_updates',
      ])
      .orderBy('e.ord'),
  );
}

/** Locks the bots' rows in id order; whether each has a webhook. */
export async function lockBotsForUpdates(client: SqlClient, botIds: string[]) {
  return rows(
    client,
    chatDb
      .selectFrom('bots')
      .select((eb) => ['id', eb('webhook_url', 'is not', null).$castTo<boolean>().as('has_webhook')])
      .where(sql<boolean>`id = any(${botIds}::uuid[])`)
      .orderBy('id')
      .forUpdate(),
  );
}

/** Hands out `counts[i]` update ids to bot `botIds[i]`; each bot's last update id after that. */
export async function countUpdates(client: SqlClient, botIds: string[], counts: number[]) {
  return rows(
    client,
    chatDb
      .updateTable('bots as b')
      .from(sql<{ id: string; n: number }>`unnest(${botIds}::uuid[], ${counts}::int[])`.as<'c'>(sql`c(id, n)`))
      .set((eb) => ({ last_update_id: eb('b.last_update_id', '+', eb.ref('c.n')) }))
      .whereRef('b.id', '=', 'c.id')
      .returning(['b.id', 'b.last_update_id']),
  );
}

/** The updates as columns: the i-th update is made of the i-th entry of each list. */
export interface UpdateColumns {
  ids: string[];
  botIds: string[];
  updateIds: number[];
  kinds: string[];
  payloads: string[];
}

export async function insertUpdates(client: SqlClient, updates: UpdateColumns, at: Date): Promise<void> {
  const { ids, botIds, updateIds, kinds, payloads } = updates;
  await affected(
    client,
    chatDb
      .insertInto('bot_updates')
      .columns(['id', 'bot_id', 'update_id', 'kind', 'payload', 'created_at'])
      .expression(
        chatDb
          .selectFrom(
            sql<{
              id: string;
              bot_id: string;
              update_id: number;
              kind: string;
              payload: unknown;
            }>`unnest(${ids}::uuid[], ${botIds}::uuid[], ${updateIds}::bigint[], ${kinds}::text[], ${payloads}::jsonb[])`.as<'u'>(
              sql`u(id, bot_id, update_id, kind, payload)`,
            ),
          )
          .select(['u.id', 'u.bot_id', 'u.update_id', 'u.kind', 'u.payload', sql<Date>`${at}::timestamptz`.as('created_at')]),
      ),
  );
}

/** Deletes the updates and button presses made before the given instant; how many. */
export async function pruneUpdatesBefore(db: SqlPool, before: Date): Promise<number> {
  const updates = await affected(db, chatDb.deleteFrom('bot_updates').where('created_at', '<', before));
  const presses = await affected(db, chatDb.deleteFrom('bot_callback_queries').where('created_at', '<', before));
  return updates + presses;
}

export const examples: QueryExamples = {
  messageCandidates: (db) => messageCandidates(db, { roomIds: [example.id], messageIds: [example.otherId], ords: [0] }),
  callbackPresses: (db) => callbackPresses(db, { ids: [example.id], ords: [0] }),
  lockBotsForUpdates: (db) => lockBotsForUpdates(db, [example.id]),
  countUpdates: (db) => countUpdates(db, [example.id], [1]),
  insertUpdates: (db) =>
    insertUpdates(db, { ids: [example.id], botIds: [example.otherId], updateIds: [1], kinds: ['message'], payloads: ['{}'] }, example.at),
  pruneUpdatesBefore: (db) => pruneUpdatesBefore(db, example.at),
};
