// The statement of message_reaction updates: per reaction event, the bots of the message's room that listed
// message_reaction, with the reacting member's reactions on the message as they are now.
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { rows } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** The events as columns: the i-th event is made of the i-th entry of each list. */
export interface ReactionEvents {
  ords: number[];
  messageIds: string[];
  accountIds: string[];
}

/** Reactions of bots are no news to bots: their events give no rows. */
export async function reactionCandidates(client: SqlClient, events: ReactionEvents) {
  return rows(
    client,
    chatDb
      .selectFrom(
        sql<{
          ord: number;
          message_id: string;
          account_id: string;
        }>`unnest(${events.ords}::int[], ${events.messageIds}::uuid[], ${events.accountIds}::uuid[])`.as<'e'>(
          sql`e(ord, message_id, account_id)`,
        ),
      )
      .innerJoin('messages as msg', 'msg.id', 'e.message_id')
      .innerJoin('rooms as r', 'r.id', 'msg.room_id')
      .innerJoin('accounts as ua', (join) => join.onRef('ua.id', '=', 'e.account_id').on('ua.account_type', '<>', 'BOT'))
      .innerJoin('room_members as m', 'm.room_id', 'msg.room_id')
      .innerJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'm.account_id').on('b.deleted_at', 'is', null))
      .select([
        'e.ord',
        'b.id as bot_id',
        'msg.seq',
        'r.bot_api_id as room_api_id',
        'r.type as room_type',
        'r.name as room_name',
        'ua.bot_api_id as user_api_id',
        'ua.display_name',
        'ua.account_type',
      ])
      .select(
        sql<
          string[]
        >`array(select x.emoji from message_reactions x where x.message_id = e.message_id and x.account_id = e.account_id order by x.created_at, x.emoji)`.as(
          'current',
        ),
      )
      .where(sql<boolean>`'message_reaction' = any(b.allowed_updates)`)
      .orderBy('e.ord')
      .orderBy('b.id'),
  );
}

export const examples: QueryExamples = {
  reactionCandidates: (db) => reactionCandidates(db, { ords: [0], messageIds: [example.id], accountIds: [example.otherId] }),
};
