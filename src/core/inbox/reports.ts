// Inbox reports: per UTC day and channel, the conversations opened and closed, the first-response time of the
// conversations opened that day (opened → first outbound message) and the resolution time of the conversations
// closed that day (opened → closed), each as median and mean seconds over the conversations that have one.
import type { Partition } from '../crm/records.js';
import type { Queryable } from '../../platform/db/queryable.js';
import type { ChannelKind } from './channels.js';

export interface InboxReportRow {
  day: string;
  channel: ChannelKind;
  opened: number;
  closed: number;
  first_response_count: number;
  first_response_median_seconds: number | null;
  first_response_mean_seconds: number | null;
  resolution_count: number;
  resolution_median_seconds: number | null;
  resolution_mean_seconds: number | null;
}

interface Raw {
  day: string;
  channel: string;
  opened: string | null;
  closed: string | null;
  fr_count: string | null;
  fr_median: number | null;
  fr_mean: number | null;
  res_count: string | null;
  res_median: number | null;
  res_mean: number | null;
}

const seconds = (value: number | null) => (value === null ? null : Math.round(Number(value) * 1000) / 1000);

/** Days from..to (both included, YYYY-MM-DD, UTC); a channel filter narrows to one channel. Ordered by day, channel. */
export async function inboxReport(
  db: Queryable,
  part: Partition,
  range: { from: string; to: string; channel?: string },
): Promise<InboxReportRow[]> {
  const { rows } = await db.query<Raw>(
    `with bounds as (select $3::date::timestamp at time zone 'UTC' as start, ($4::date + 1)::timestamp at time zone 'UTC' as stop),
     opened as (
       select (c.created_at at time zone 'UTC')::date as day, c.channel, count(*) as opened,
              count(c.first_response_at) as fr_count,
              percentile_cont(0.5) within group (order by extract(epoch from c.first_response_at - c.created_at)) as fr_median,
              avg(extract(epoch from c.first_response_at - c.created_at)) as fr_mean
       from inbox_conversations c, bounds b
       where c.workspace_id = $1 and c.environment = $2 and c.created_at >= b.start and c.created_at < b.stop and ($5::text is null or c.channel = $5)
       group by 1, 2
     ),
     closed as (
       select (c.closed_at at time zone 'UTC')::date as day, c.channel, count(*) as closed,
              percentile_cont(0.5) within group (order by extract(epoch from c.closed_at - c.created_at)) as res_median,
              avg(extract(epoch from c.closed_at - c.created_at)) as res_mean
       from inbox_conversations c, bounds b
       where c.workspace_id = $1 and c.environment = $2 and c.closed_at >= b.start and c.closed_at < b.stop and ($5::text is null or c.channel = $5)
       group by 1, 2
     )
     select to_char(coalesce(o.day, x.day), 'YYYY-MM-DD') as day, coalesce(o.channel, x.channel) as channel,
            o.opened, x.closed, o.fr_count, o.fr_median::float8 as fr_median, o.fr_mean::float8 as fr_mean,
            x.closed as res_count, x.res_median::float8 as res_median, x.res_mean::float8 as res_mean
     from opened o full outer join closed x on o.day = x.day and o.channel = x.channel
     order by 1, 2`,
    [part.workspaceId, part.environment, range.from, range.to, range.channel ?? null],
  );
  return rows.map((r) => ({
    day: r.day,
    // The schemas of both APIs allow conversations only on these channels.
    channel: r.channel as ChannelKind,
    opened: Number(r.opened ?? 0),
    closed: Number(r.closed ?? 0),
    first_response_count: Number(r.fr_count ?? 0),
    first_response_median_seconds: seconds(r.fr_median),
    first_response_mean_seconds: seconds(r.fr_mean),
    resolution_count: Number(r.res_count ?? 0),
    resolution_median_seconds: seconds(r.res_median),
    resolution_mean_seconds: seconds(r.res_mean),
  }));
}
