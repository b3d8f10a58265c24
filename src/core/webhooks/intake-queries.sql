-- The SQL of src/core/webhooks/intake-queries.ts, one section per exported function (make snapshots writes this file).

-- insertEventDeliveries
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
    "outbox_id",
    "created_at"
  )
select
  "t"."id",
  "t"."webhook_id",
  "t"."workspace_id",
  "t"."environment",
  'event' as "kind",
  "t"."event",
  "t"."event_id",
  "t"."envelope",
  "t"."status",
  "t"."next_attempt_at",
  "t"."outbox_id",
  $1::timestamptz as "created_at"
from
  unnest(
    $2::uuid[],
    $3::uuid[],
    $4::uuid[],
    $5::text[],
    $6::text[],
    $7::text[],
    $8::text[],
    $9::text[],
    $10::timestamptz[],
    $11::bigint[]
  ) as t (
    id,
    webhook_id,
    workspace_id,
    environment,
    event,
    event_id,
    envelope,
    status,
    next_attempt_at,
    outbox_id
  )
on conflict do nothing
returning
  "id",
  "status";

-- subscribedWebhooks
select
  "id",
  "workspace_id",
  "environment",
  "events",
  "status"
from
  "webhooks"
where
  workspace_id = any ($1::uuid[])
  and "status" <> $2;
