-- The SQL of src/chat/bots/delivery/queries.ts, one section per exported function (make snapshots writes this file).

-- botsDue
select
  "b"."id"
from
  "bots" as "b"
where
  "b"."deleted_at" is null
  and "b"."webhook_url" is not null
  and (
    "b"."webhook_retry_at" is null
    or "b"."webhook_retry_at" <= $1
  )
  and exists (
    select
      1 as "one"
    from
      "bot_updates" as "u"
    where
      "u"."bot_id" = "b"."id"
  );

-- markDelivered
with
  "gone" as (
    delete from "bot_updates"
    where
      "bot_id" = $1
      and "update_id" = $2
  )
update "bots"
set
  "webhook_failures" = $3,
  "webhook_retry_at" = $4
where
  "id" = $5
  and "webhook_failures" > $6;

-- oldestPendingUpdate
select
  "update_id",
  "payload"
from
  "bot_updates"
where
  "bot_id" = $1
order by
  "update_id"
limit
  $2;

-- recordFailure
update "bots"
set
  "webhook_failures" = $1,
  "webhook_retry_at" = $2,
  "webhook_last_error_at" = $3,
  "webhook_last_error_message" = $4
where
  "id" = $5
  and "webhook_url" = $6;

-- webhookTarget
select
  "webhook_url",
  "webhook_secret",
  "webhook_certificate",
  "webhook_failures",
  "webhook_retry_at"
from
  "bots"
where
  "id" = $1
  and "deleted_at" is null;
