-- The SQL of src/chat/realtime/log-queries.ts, one section per exported function (make snapshots writes this file).

-- logUserEvents
set
  local enable_seqscan = off;

with
  "rcpt" as (
    select distinct
      "x"."event_id",
      "x"."account_id"
    from
      (
        select
          "r"."event_id",
          "m"."account_id"
        from
          unnest($1::bigint[], $2::uuid[]) as r (event_id, room_id)
          inner join "room_members" as "m" on "m"."room_id" = "r"."room_id"
        union all
        select
          "c"."event_id",
          "cm"."account_id"
        from
          unnest($3::bigint[], $4::uuid[]) as c (event_id, channel_id)
          inner join "channel_members" as "cm" on "cm"."channel_id" = "c"."channel_id"
        union all
        select
          "n"."event_id",
          "acc"."id" as "account_id"
        from
          unnest($5::bigint[], $6::uuid[]) as n (event_id, account_id)
          inner join "accounts" as "acc" on "acc"."id" = "n"."account_id"
        union all
        select
          "b"."event_id",
          "acc"."id" as "account_id"
        from
          unnest($7::bigint[]) as b (event_id)
          inner join "accounts" as "acc" on "acc"."account_type" = 'USER'
        union all
        select
          "b"."event_id",
          "acc"."id" as "account_id"
        from
          unnest($8::bigint[], $9::text[]) as b (event_id, module_code)
          inner join "accounts" as "acc" on "acc"."module_code" = "b"."module_code"
          and "acc"."account_type" = 'USER'
      ) as "x"
  ),
  "numbered" as (
    select
      "event_id",
      "account_id",
      row_number() over (
        partition by
          account_id
        order by
          event_id
      ) as "n"
    from
      "rcpt"
  ),
  "logged" as (
    insert into
      "event_log" ("id", "topic", "payload", "created_at")
    select
      "o"."id",
      "o"."topic",
      coalesce(v.payload, o.payload) as "payload",
      "o"."created_at"
    from
      "outbox" as "o"
      left join unnest($10::bigint[], $11::jsonb[]) as v (id, payload) on "v"."id" = "o"."id"
    where
      "o"."id" in (
        select
          "event_id"
        from
          "rcpt"
      )
    on conflict ("id") do nothing
  )
insert into
  "user_events" ("account_id", "seq", "event_id")
select
  "n"."account_id",
  coalesce(
    (
      select
        max("last"."seq") as "seq"
      from
        "user_events" as "last"
      where
        "last"."account_id" = "n"."account_id"
    ),
    0
  ) + n.n as "seq",
  "n"."event_id"
from
  "numbered" as "n"
returning
  "event_id",
  "account_id",
  "seq";

set
  local enable_seqscan to default;

-- newestSeqOf
select
  max("last"."seq") as "seq"
from
  "user_events" as "last"
where
  "last"."account_id" = $1;

-- newestSeqsOf
select
  "a"."id",
  (
    select
      max("last"."seq") as "seq"
    from
      "user_events" as "last"
    where
      "last"."account_id" = "a"."id"
  ) as "last_seq"
from
  unnest($1::uuid[]) as a (id);

-- userEventPage
select
  "l"."seq" as "last_seq",
  "x"."seq",
  "x"."event_id",
  "x"."topic",
  "x"."created_at",
  "x"."payload"
from
  (
    select
      max("last"."seq") as "seq"
    from
      "user_events" as "last"
    where
      "last"."account_id" = $1
  ) as "l"
  left join lateral (
    select
      "u"."seq",
      "u"."event_id",
      "e"."topic",
      "e"."created_at",
      "e"."payload"
    from
      "user_events" as "u"
      inner join "event_log" as "e" on "e"."id" = "u"."event_id"
    where
      "u"."account_id" = $2
      and "u"."seq" > $3
    order by
      "u"."seq"
    limit
      $4
  ) as "x" on true
order by
  "x"."seq";
