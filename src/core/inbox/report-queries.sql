-- The SQL of src/core/inbox/report-queries.ts, one section per exported function (make snapshots writes this file).

-- inboxReportRows
with
  "opened" as (
    select
      (c.created_at at time zone 'UTC')::date as "day",
      "c"."channel",
      count(*) as "opened",
      count(c.first_response_at) as "fr_count",
      percentile_cont(0.5) within group (
        order by
          extract(
            epoch
            from
              c.first_response_at - c.created_at
          )
      ) as "fr_median",
      avg(
        extract(
          epoch
          from
            c.first_response_at - c.created_at
        )
      ) as "fr_mean"
    from
      "inbox_conversations" as "c"
    where
      "c"."workspace_id" = $1
      and "c"."environment" = $2
      and "c"."created_at" >= $3::date::timestamp at time zone 'UTC'
      and "c"."created_at" < ($4::date + 1)::timestamp at time zone 'UTC'
      and "c"."channel" = $5
    group by
      1,
      2
  ),
  "closed" as (
    select
      (c.closed_at at time zone 'UTC')::date as "day",
      "c"."channel",
      count(*) as "closed",
      percentile_cont(0.5) within group (
        order by
          extract(
            epoch
            from
              c.closed_at - c.created_at
          )
      ) as "res_median",
      avg(
        extract(
          epoch
          from
            c.closed_at - c.created_at
        )
      ) as "res_mean"
    from
      "inbox_conversations" as "c"
    where
      "c"."workspace_id" = $6
      and "c"."environment" = $7
      and "c"."closed_at" >= $8::date::timestamp at time zone 'UTC'
      and "c"."closed_at" < ($9::date + 1)::timestamp at time zone 'UTC'
      and "c"."channel" = $10
    group by
      1,
      2
  )
select
  to_char(coalesce(o.day, x.day), 'YYYY-MM-DD') as "day",
  coalesce(o.channel, x.channel) as "channel",
  "o"."opened",
  "x"."closed",
  "o"."fr_count",
  o.fr_median::float8 as "fr_median",
  o.fr_mean::float8 as "fr_mean",
  "x"."closed" as "res_count",
  x.res_median::float8 as "res_median",
  x.res_mean::float8 as "res_mean"
from
  "opened" as "o"
  full join "closed" as "x" on "o"."day" = "x"."day"
  and "o"."channel" = "x"."channel"
order by
  1,
  2;
