-- The SQL of src/chat/bots/api/update-queries.ts, one section per exported function (make snapshots writes this file).

-- confirmBelow
delete from "bot_updates"
where
  "bot_id" = $1
  and "update_id" < $2;

-- confirmThrough
delete from "bot_updates"
where
  "bot_id" = $1
  and "update_id" <= (
    select
      "u"."update_id"
    from
      "bot_updates" as "u"
    where
      "u"."bot_id" = $2
      and "u"."id" = $3
  );

-- keepLast
delete from "bot_updates"
where
  "bot_id" = $1
  and "update_id" <= (
    select
      max("u"."update_id") as "top"
    from
      "bot_updates" as "u"
    where
      "u"."bot_id" = $2
  ) - $3;

-- pendingUpdates
select
  "payload"
from
  "bot_updates"
where
  "bot_id" = $1
order by
  "update_id"
limit
  $2;
