-- The SQL of src/core/webhooks/delivery-queries.ts, one section per exported function (make snapshots writes this file).

-- deliveriesPage
select
  "id",
  "webhook_id",
  "kind",
  "event",
  "event_id",
  "status",
  "attempt_count",
  "round",
  "response_status",
  "latency_ms",
  "response_excerpt",
  "error",
  "created_at",
  "last_attempt_at",
  "next_attempt_at",
  "replay_of"
from
  "webhook_deliveries"
where
  "workspace_id" = $1
  and "environment" = $2
  and "webhook_id" = $3
  and "status" = $4
  and "id" < $5
order by
  "id" desc
limit
  $6;

-- deliveryById
select
  "id",
  "webhook_id",
  "kind",
  "event",
  "event_id",
  "status",
  "attempt_count",
  "round",
  "response_status",
  "latency_ms",
  "response_excerpt",
  "error",
  "created_at",
  "last_attempt_at",
  "next_attempt_at",
  "replay_of"
from
  "webhook_deliveries"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3
  and "webhook_id" = $4;

-- insertReplay
insert into
  "webhook_deliveries" (
    "id",
    "webhook_id",
    "workspace_id",
    "environment",
    "kind",
    "event",
    "event_id",
    "envelope",
    "status",
    "next_attempt_at",
    "replay_of",
    "created_at"
  )
select
  $1::uuid as "id",
  "d"."webhook_id",
  "d"."workspace_id",
  "d"."environment",
  'replay' as "kind",
  "d"."event",
  $2::text as "event_id",
  $3::text as "envelope",
  'pending' as "status",
  $4::timestamptz as "next_attempt_at",
  "d"."id",
  $5::timestamptz as "created_at"
from
  "webhook_deliveries" as "d"
  inner join "webhooks" as "w" on "w"."id" = "d"."webhook_id"
where
  "d"."id" = $6
  and "d"."workspace_id" = $7
  and "d"."environment" = $8
  and "d"."webhook_id" = $9
  and "w"."status" <> $10
returning
  "id",
  "webhook_id",
  "kind",
  "event",
  "event_id",
  "status",
  "attempt_count",
  "round",
  "response_status",
  "latency_ms",
  "response_excerpt",
  "error",
  "created_at",
  "last_attempt_at",
  "next_attempt_at",
  "replay_of";

-- insertSentDelivery
insert into
  "webhook_deliveries" (
    "id",
    "webhook_id",
    "workspace_id",
    "environment",
    "kind",
    "event",
    "event_id",
    "envelope",
    "status",
    "attempt_count",
    "last_attempt_at",
    "response_status",
    "latency_ms",
    "response_excerpt",
    "error",
    "created_at",
    "completed_at"
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
  );

-- replayableEnvelope
select
  "d"."envelope"
from
  "webhook_deliveries" as "d"
  inner join "webhooks" as "w" on "w"."id" = "d"."webhook_id"
where
  "d"."id" = $1
  and "d"."workspace_id" = $2
  and "d"."environment" = $3
  and "d"."webhook_id" = $4
  and "w"."status" <> $5;

-- resendDelivery
update "webhook_deliveries" as "d"
set
  "status" = $1,
  "attempt_count" = $2,
  "round" = "d"."round" + $3,
  "next_attempt_at" = $4,
  "lease_until" = $5,
  "completed_at" = $6
from
  "webhooks" as "w"
where
  "d"."id" = $7
  and "d"."workspace_id" = $8
  and "d"."environment" = $9
  and "d"."webhook_id" = $10
  and "w"."id" = "d"."webhook_id"
  and "w"."status" <> $11
  and "d"."status" in ($12, $13, $14)
returning
  "d"."id",
  "d"."webhook_id",
  "d"."kind",
  "d"."event",
  "d"."event_id",
  "d"."status",
  "d"."attempt_count",
  "d"."round",
  "d"."response_status",
  "d"."latency_ms",
  "d"."response_excerpt",
  "d"."error",
  "d"."created_at",
  "d"."last_attempt_at",
  "d"."next_attempt_at",
  "d"."replay_of";

-- webhookStatus
select
  "status"
from
  "webhooks"
where
  "id" = $1;
