-- The SQL of src/core/webhooks/sweep-queries.ts, one section per exported function (make snapshots writes this file).

-- clearNotice
update "webhooks"
set
  "notice_pending" = $1,
  "notice_lease_until" = $2
where
  "id" = $3;

-- eventsWaitingLongerThan
select
  1 as "one"
from
  "outbox"
where
  "published_at" is null
  and "created_at" < now() - $1 * interval '1 millisecond'
limit
  $2;

-- lastFailure
select
  "error"
from
  "webhook_deliveries"
where
  "webhook_id" = $1
  and "status" = $2
order by
  "id" desc
limit
  $3;

-- leaseNotice
with
  "leased" as (
    update "webhooks"
    set
      "notice_lease_until" = $1
    where
      "id" = $2
      and (
        "notice_pending"
        and (
          "notice_lease_until" is null
          or "notice_lease_until" < $3
        )
      )
    returning
      "id",
      "name",
      "url",
      "workspace_id",
      "environment",
      "consecutive_failures",
      "paused_at"
  )
select
  "l".*,
  "ws"."name" as "workspace_name",
  "a"."email" as "owner_email",
  "ws"."notification_email",
  "a"."display_name" as "owner_name"
from
  "leased" as "l"
  inner join "workspaces" as "ws" on "ws"."id" = "l"."workspace_id"
  inner join "accounts" as "a" on "a"."id" = "ws"."owner_id";

-- lostDeliveries
select
  "id",
  "round",
  "attempt_count",
  "status",
  "next_attempt_at"
from
  "webhook_deliveries"
where
  "status" in ($1, $2)
  and "next_attempt_at" <= $3
  and (
    "status" = $4
    or "lease_until" < $5
  )
order by
  "next_attempt_at"
limit
  $6;

-- pendingNotices
select
  "id"
from
  "webhooks"
where
  (
    "notice_pending"
    and (
      "notice_lease_until" is null
      or "notice_lease_until" < $1
    )
  )
limit
  $2;

-- pruneDeliveries
delete from "webhook_deliveries"
where
  "webhook_id" = $1
  and "status" in ($2, $3, $4)
  and "id" < (
    select
      "id"
    from
      "webhook_deliveries"
    where
      "webhook_id" = $5
    order by
      "id" desc
    limit
      $6
    offset
      $7
  );
