-- The SQL of src/core/webhooks/attempt-queries.ts, one section per exported function (make snapshots writes this file).

-- claimAttempts
update "webhook_deliveries" as "d"
set
  "status" = case w.status
    when 'Paused' then 'held'
    when 'Disabled' then 'cancelled'
    else 'sending'
  end,
  "attempt_count" = case
    when w.status in ('Paused', 'Disabled')
    or d.status = 'sending' then d.attempt_count
    else d.attempt_count + 1
  end,
  "lease_until" = case
    when w.status in ('Paused', 'Disabled') then null
    else $1::timestamptz
  end,
  "next_attempt_at" = case
    when w.status in ('Paused', 'Disabled') then null
    else d.next_attempt_at
  end,
  "completed_at" = case
    when w.status = 'Disabled' then $2::timestamptz
    else d.completed_at
  end,
  "error" = case
    when w.status = 'Disabled' then 'cancelled: the webhook was disabled'
    else d.error
  end
from
  "webhooks" as "w",
  unnest($3::uuid[], $4::int[], $5::int[]) as j (id, round, attempt)
where
  "d"."id" = "j"."id"
  and "d"."round" = "j"."round"
  and "w"."id" = "d"."webhook_id"
  and (
    (
      d.status = 'pending'
      and d.attempt_count = j.attempt - 1
      and d.next_attempt_at <= $6::timestamptz + $7 * interval '1 millisecond'
    )
    or (
      d.status = 'sending'
      and d.attempt_count = j.attempt
      and d.lease_until < $8::timestamptz
    )
  )
returning
  "d"."id",
  "d"."webhook_id",
  "d"."workspace_id",
  "d"."event",
  "d"."event_id",
  "d"."envelope",
  "d"."attempt_count",
  "d"."round",
  "d"."status",
  "w"."url",
  "w"."headers",
  "w"."secret_ciphertext",
  (
    select
      "o"."trace_context"
    from
      "outbox" as "o"
    where
      "o"."id" = "d"."outbox_id"
  ) as "trace_context";

-- pauseAfterFailures
update "webhooks"
set
  "status" = $1,
  "paused_reason" = $2,
  "paused_at" = $3,
  "updated_at" = $4,
  "notice_pending" = $5,
  "notice_lease_until" = $6
where
  "id" = $7
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

-- recordSuccesses
with
  "r" as (
    select
      *
    from
      unnest(
        $1::uuid[],
        $2::int[],
        $3::int[],
        $4::timestamptz[],
        $5::int[],
        $6::int[],
        $7::text[],
        $8::timestamptz[]
      ) as r (
        id,
        round,
        attempt,
        at,
        status,
        latency,
        excerpt,
        done
      )
  ),
  "d" as (
    update "webhook_deliveries" as "x"
    set
      "status" = $9,
      "lease_until" = $10,
      "next_attempt_at" = $11,
      "last_attempt_at" = "r"."at",
      "response_status" = "r"."status",
      "latency_ms" = "r"."latency",
      "response_excerpt" = "r"."excerpt",
      "error" = $12,
      "completed_at" = "r"."done"
    from
      "r"
    where
      "x"."id" = "r"."id"
      and "x"."round" = "r"."round"
      and "x"."attempt_count" = "r"."attempt"
      and "x"."status" = $13
    returning
      "x"."webhook_id"
  ),
  "b" as (
    select distinct
      "w"."id",
      "w"."workspace_id",
      "w"."environment",
      "w"."status"
    from
      "webhooks" as "w"
      inner join "d" on "w"."id" = "d"."webhook_id"
    where
      (
        "w"."consecutive_failures" <> $14
        or "w"."status" = $15
        or not "w"."verified"
      )
  ),
  "u" as (
    update "webhooks" as "w"
    set
      "consecutive_failures" = $16,
      "verified" = $17,
      "status" = case
        when w.status = 'Unverified' then 'Active'
        else w.status
      end,
      "updated_at" = case
        when w.status = 'Unverified' then $18::timestamptz
        else w.updated_at
      end
    from
      "b"
    where
      "w"."id" = "b"."id"
    returning
      "w"."id"
  ),
  "e" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'webhook.verified' as "topic",
      jsonb_build_object(
        'audience',
        jsonb_build_object('kind', 'accounts', 'accountIds', '[]'::jsonb),
        'workspaceId',
        b.workspace_id,
        'environment',
        b.environment,
        'webhookId',
        b.id,
        'status',
        'Active'
      ) as "payload"
    from
      "b"
    where
      "b"."status" = $19
  )
select
  count(*)::int as "n"
from
  "d";

-- recordedAndCounted
with
  "d" as (
    update "webhook_deliveries"
    set
      "status" = $1,
      "lease_until" = $2,
      "next_attempt_at" = $3,
      "last_attempt_at" = $4,
      "response_status" = $5,
      "latency_ms" = $6,
      "response_excerpt" = $7,
      "error" = $8,
      "completed_at" = $9
    where
      "id" = $10
      and "round" = $11
      and "attempt_count" = $12
      and "status" = $13
    returning
      "webhook_id"
  ),
  "w" as (
    update "webhooks"
    set
      "consecutive_failures" = "consecutive_failures" + $14
    where
      "id" in (
        select
          "d"."webhook_id"
        from
          "d"
      )
    returning
      "webhooks"."id"
  )
select
  count(*)::int as "n"
from
  "d";
