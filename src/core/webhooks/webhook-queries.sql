-- The SQL of src/core/webhooks/webhook-queries.ts, one section per exported function (make snapshots writes this file).

-- cancelOpenDeliveries
update "webhook_deliveries"
set
  "status" = $1,
  "next_attempt_at" = $2,
  "completed_at" = $3,
  "error" = $4
where
  "webhook_id" = $5
  and "status" in ($6, $7);

-- countWebhooks
select
  count(*)::int as "n"
from
  "webhooks"
where
  "workspace_id" = $1
  and "environment" = $2;

-- deleteWebhook
delete from "webhooks"
where
  "id" = $1
  and "workspace_id" = $2
  and "environment" = $3
returning
  "id",
  "workspace_id",
  "environment",
  "name",
  "url",
  "events",
  "description",
  "headers",
  "secret_last_four",
  "status",
  "paused_reason",
  "consecutive_failures",
  "created_at",
  "updated_at";

-- disableWebhook
update "webhooks"
set
  "status" = $1,
  "paused_reason" = $2,
  "disabled_at" = $3,
  "updated_at" = $4,
  "notice_pending" = $5
where
  "id" = $6
  and "workspace_id" = $7
  and "environment" = $8
  and "status" <> $9
returning
  "id",
  "workspace_id",
  "environment",
  "name",
  "url",
  "events",
  "description",
  "headers",
  "secret_last_four",
  "status",
  "paused_reason",
  "consecutive_failures",
  "created_at",
  "updated_at";

-- insertWebhook
insert into
  "webhooks" (
    "id",
    "workspace_id",
    "environment",
    "name",
    "url",
    "events",
    "description",
    "headers",
    "secret_ciphertext",
    "secret_last_four",
    "status",
    "verified",
    "created_via",
    "created_by_key",
    "created_by_account",
    "created_at",
    "updated_at"
  )
values
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10,
    $11,
    $12,
    $13,
    $14,
    $15,
    $16,
    $17
  )
returning
  "id",
  "workspace_id",
  "environment",
  "name",
  "url",
  "events",
  "description",
  "headers",
  "secret_last_four",
  "status",
  "paused_reason",
  "consecutive_failures",
  "created_at",
  "updated_at";

-- pauseWebhook
update "webhooks"
set
  "status" = $1,
  "paused_reason" = $2,
  "paused_at" = $3,
  "updated_at" = $4
where
  "id" = $5
  and "workspace_id" = $6
  and "environment" = $7
  and "status" in ($8, $9)
returning
  "id",
  "workspace_id",
  "environment",
  "name",
  "url",
  "events",
  "description",
  "headers",
  "secret_last_four",
  "status",
  "paused_reason",
  "consecutive_failures",
  "created_at",
  "updated_at";

-- releaseHeldDeliveries
update "webhook_deliveries"
set
  "status" = $1,
  "next_attempt_at" = $2
where
  "webhook_id" = $3
  and "status" = $4
returning
  "id",
  "round",
  "attempt_count";

-- resumeWebhook
update "webhooks"
set
  "status" = case
    when verified then 'Active'
    else 'Unverified'
  end,
  "paused_reason" = $1,
  "paused_at" = $2,
  "consecutive_failures" = $3,
  "updated_at" = $4
where
  "id" = $5
  and "workspace_id" = $6
  and "environment" = $7
  and "status" = $8
returning
  "id",
  "workspace_id",
  "environment",
  "name",
  "url",
  "events",
  "description",
  "headers",
  "secret_last_four",
  "status",
  "paused_reason",
  "consecutive_failures",
  "created_at",
  "updated_at";

-- updateWebhook
update "webhooks"
set
  "name" = $1,
  "updated_at" = $2
where
  "id" = $3
  and "workspace_id" = $4
  and "environment" = $5
  and "status" <> $6
returning
  "id",
  "workspace_id",
  "environment",
  "name",
  "url",
  "events",
  "description",
  "headers",
  "secret_last_four",
  "status",
  "paused_reason",
  "consecutive_failures",
  "created_at",
  "updated_at";

-- verifyWebhook
with
  "before" as (
    select
      "status"
    from
      "webhooks"
    where
      "id" = $1
    for update
  )
update "webhooks" as "w"
set
  "status" = case
    when w.status = 'Unverified' then 'Active'
    else w.status
  end,
  "verified" = $2,
  "consecutive_failures" = case
    when w.status = 'Unverified' then 0
    else w.consecutive_failures
  end,
  "updated_at" = case
    when w.status = 'Unverified' then $3::timestamptz
    else w.updated_at
  end
from
  "before"
where
  "w"."id" = $4
  and not "w"."verified"
returning
  "w"."id",
  "w"."workspace_id",
  "w"."environment",
  "w"."name",
  "w"."url",
  "w"."events",
  "w"."description",
  "w"."headers",
  "w"."secret_last_four",
  "w"."status",
  "w"."paused_reason",
  "w"."consecutive_failures",
  "w"."created_at",
  "w"."updated_at",
  "before"."status" as "previous_status";

-- webhookEnvironment
select
  "environment"
from
  "webhooks"
where
  "id" = $1
  and "workspace_id" = $2;

-- webhookWithSecret
select
  "id",
  "workspace_id",
  "environment",
  "name",
  "url",
  "events",
  "description",
  "headers",
  "secret_last_four",
  "status",
  "paused_reason",
  "consecutive_failures",
  "created_at",
  "updated_at",
  "secret_ciphertext"
from
  "webhooks"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- webhooksPage
select
  "id",
  "workspace_id",
  "environment",
  "name",
  "url",
  "events",
  "description",
  "headers",
  "secret_last_four",
  "status",
  "paused_reason",
  "consecutive_failures",
  "created_at",
  "updated_at"
from
  "webhooks"
where
  "workspace_id" = $1
  and "environment" = $2
  and "status" = $3
  and "id" < $4
order by
  "id" desc
limit
  $5;
