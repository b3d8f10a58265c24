// The statement of inbox reports: per UTC day and channel of a partition, the conversations opened and closed with
// the median and mean of their first-response and resolution times.
import { sql } from 'kysely';
import { rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Partition } from '../crm/queries.js';
import { coreDb } from '../tables.js';

/** Days from..to (both included, YYYY-MM-DD, UTC); a channel filter narrows to one channel. Ordered by day, channel. */
export async function inboxReportRows(db: Runner, part: Partition, range: { from: string; to: string; channel?: string }) {
  // The days as UTC instants: from the start of `from` up to (excluded) the start of the day after `to`.
  const start = sql<Date>`${range.from}::date::timestamp at time zone 'UTC'`;
  const stop = sql<Date>`(${range.to}::date + 1)::timestamp at time zone 'UTC'`;
  // The conversations of the partition (and channel) whose `at` column falls within the days, as `c`.
  const within = (at: 'created_at' | 'closed_at') =>
    coreDb
      .selectFrom('inbox_conversations as c')
      .where('c.workspace_id', '=', part.workspaceId)
      .where('c.environment', '=', part.environment)
      .where(`c.${at}`, '>=', start)
      .where(`c.${at}`, '<', stop)
      .$if(range.channel !== undefined, (qb) => qb.where('c.channel', '=', range.channel!));
  return rows(
    db,
    coreDb
      .with('opened', () =>
        within('created_at')
          .select([
            sql<string>`(c.created_at at time zone 'UTC')::date`.as('day'),
            'c.channel',
            sql<string>`count(*)`.as('opened'),
            sql<string>`count(c.first_response_at)`.as('fr_count'),
            sql<number | null>`percentile_cont(0.5) within group (order by extract(epoch from c.first_response_at - c.created_at))`.as(
              'fr_median',
            ),
            sql<number | null>`avg(extract(epoch from c.first_response_at - c.created_at))`.as('fr_mean'),
          ])
          .groupBy([sql`1`, sql`2`]),
      )
      .with('closed', () =>
        within('closed_at')
          .select([
            sql<string>`(c.closed_at at time zone 'UTC')::date`.as('day'),
            'c.channel',
            sql<string>`count(*)`.as('closed'),
            sql<number | null>`percentile_cont(0.5) within group (order by extract(epoch from c.closed_at - c.created_at))`.as(
              'res_median',
            ),
            sql<number | null>`avg(extract(epoch from c.closed_at - c.created_at))`.as('res_mean'),
          ])
          .groupBy([sql`1`, sql`2`]),
      )
      .selectFrom('opened as o')
      .fullJoin('closed as x', (join) => join.onRef('o.day', '=', 'x.day').onRef('o.channel', '=', 'x.channel'))
      .select([
        sql<string>`to_char(coalesce(o.day, x.day), 'YYYY-MM-DD')`.as('day'),
        sql<string>`coalesce(o.channel, x.channel)`.as('channel'),
        'o.opened',
        'x.closed',
        'o.fr_count',
        sql<number | null>`o.fr_median::float8`.as('fr_median'),
        sql<number | null>`o.fr_mean::float8`.as('fr_mean'),
        'x.closed as res_count',
        sql<number | null>`x.res_median::float8`.as('res_median'),
        sql<number | null>`x.res_mean::float8`.as('res_mean'),
      ])
      .orderBy(sql`1`)
      .orderBy(sql`2`),
  );
}

export const examples: QueryExamples = {
  inboxReportRows: (db) =>
    inboxReportRows(db, { workspaceId: example.id, environment: 'live' }, { from: '2026-01-01', to: '2026-01-31', channel: 'email' }),
};
