// The statement of message search: full-text matches over the expression index messages_search, in the rooms the
// account is a member of (a deleted room has no members), without the messages it hid.
import { sql } from 'kysely';
import { rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { messageColumnsIn } from '../base/message-views.js';
import { hiddenBy, hiddenForMe } from '../base/message-queries.js';
import { chatDb } from '../base/tables.js';

/** The same expression as the index messages_search, so the planner can use it. */
const document = sql`to_tsvector('simple'::regconfig, x.text)`;

export interface MessageSearch {
  accountId: string;
  q: string;
  roomId?: string;
  /** The sender. */
  from?: string;
  /** UTC instants (ISO 8601) bounding created_at: from inclusive, until exclusive. */
  since: string | null;
  until: string | null;
  relevance: boolean;
  /** The keyset of the last row of the previous page; rank only when ordered by relevance. */
  after: { at: string; id: string; rank: number | null } | null;
  limit: number;
}

/** `limit` matches, by rank then newest first when ordered by relevance, else newest first. */
export async function searchMessages(db: Runner, s: MessageSearch) {
  const { after, since, until } = s;
  const matches = chatDb
    .selectFrom(sql<{ query: unknown }>`plainto_tsquery('simple'::regconfig, ${s.q})`.as<'t'>(sql`t(query)`))
    .innerJoin('messages as x', (join) =>
      join
        .on(sql<boolean>`${document} @@ t.query`)
        .on('x.text', 'is not', null)
        .on('x.recalled_at', 'is', null),
    )
    .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'x.room_id').on('m.account_id', '=', s.accountId))
    .select([
      ...messageColumnsIn('x'),
      'x.reply_count',
      hiddenForMe(s.accountId, 'x'),
      // The rank reads each match's words again: computed only when it orders the page.
      (s.relevance ? sql<number>`ts_rank(${document}, t.query, 1)::float8` : sql<number>`0::float8`).as('rank'),
    ])
    .where((eb) => eb.not(eb.exists(hiddenBy(s.accountId, eb.ref('x.id')))))
    .$if(s.roomId !== undefined, (w) => w.where('x.room_id', '=', s.roomId!))
    .$if(s.from !== undefined, (w) => w.where('x.sender_id', '=', s.from!))
    .$if(since !== null, (w) => w.where('x.created_at', '>=', sql<Date>`${since}::timestamptz`))
    .$if(until !== null, (w) => w.where('x.created_at', '<', sql<Date>`${until}::timestamptz`));
  return rows(
    db,
    chatDb
      .selectFrom(matches.as('r'))
      .selectAll('r')
      .$if(after !== null && s.relevance, (w) =>
        w.where(sql<boolean>`(r.rank, r.created_at, r.id) < (${after!.rank}::float8, ${after!.at}::timestamptz, ${after!.id}::uuid)`),
      )
      .$if(after !== null && !s.relevance, (w) =>
        w.where(sql<boolean>`(r.created_at, r.id) < (${after!.at}::timestamptz, ${after!.id}::uuid)`),
      )
      .$if(s.relevance, (o) => o.orderBy('r.rank', 'desc'))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(s.limit),
  );
}

export const examples: QueryExamples = {
  searchMessages: (db) =>
    searchMessages(db, {
      accountId: example.id,
      q: example.text,
      roomId: example.otherId,
      from: example.id,
      since: example.at.toISOString(),
      until: example.at.toISOString(),
      relevance: true,
      after: { at: example.at.toISOString(), id: example.otherId, rank: 0.5 },
      limit: 21,
    }),
};
