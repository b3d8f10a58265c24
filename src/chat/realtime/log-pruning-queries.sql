-- The SQL of src/chat/realtime/log-pruning-queries.ts, one section per exported function (make snapshots writes this file).

-- deleteSupersededUserEvents
delete from "user_events" as "u"
where
  "u"."event_id" = any ($1::bigint[])
  and exists (
    select
      "newer"."seq"
    from
      "user_events" as "newer"
    where
      "newer"."account_id" = "u"."account_id"
      and "newer"."seq" > "u"."seq"
  );

-- deleteUnloggedEvents
delete from "event_log" as "e"
where
  "e"."id" = any ($1::bigint[])
  and not exists (
    select
      "u"."seq"
    from
      "user_events" as "u"
    where
      "u"."event_id" = "e"."id"
  );

-- oldEventIds
select
  "id"
from
  "event_log"
where
  "created_at" < $1::timestamptz - make_interval(hours => $2::int)
  and "id" > $3
order by
  "id"
limit
  $4;
