-- The SQL of src/chat/rooms/member-queries.ts, one section per exported function (make snapshots writes this file).

-- memberOf
select
  "m"."account_id",
  "m"."role",
  "m"."joined_at",
  "a"."display_name",
  "a"."avatar_url",
  "a"."account_type",
  "m"."archived",
  "m"."pinned",
  "m"."notification_level" as "notification_level",
  case
    when "m"."muted_until" = 'infinity' then null
    else "m"."muted_until"
  end as "muted_until",
  coalesce("m"."muted_until" = 'infinity', false) as "muted_forever"
from
  "room_members" as "m"
  inner join "accounts" as "a" on "a"."id" = "m"."account_id"
where
  "m"."room_id" = $1
  and "m"."account_id" = $2;

-- memberPage
select
  "m"."account_id",
  "m"."role",
  "m"."joined_at",
  "a"."display_name",
  "a"."avatar_url",
  "a"."account_type",
  "m"."archived",
  "m"."pinned",
  "m"."notification_level" as "notification_level",
  case
    when "m"."muted_until" = 'infinity' then null
    else "m"."muted_until"
  end as "muted_until",
  coalesce("m"."muted_until" = 'infinity', false) as "muted_forever"
from
  "room_members" as "m"
  inner join "accounts" as "a" on "a"."id" = "m"."account_id"
where
  "m"."room_id" = $1
  and ("m"."joined_at", "m"."account_id") > ($2::timestamptz, $3::uuid)
order by
  "m"."joined_at",
  "m"."account_id"
limit
  $4;

-- pendingRequestPage
select
  "j"."id",
  "j"."room_id",
  "j"."account_id",
  "a"."display_name",
  "a"."avatar_url",
  "j"."requested_by",
  "j"."status",
  "j"."created_at",
  "j"."resolved_at",
  "j"."resolved_by"
from
  "join_requests" as "j"
  inner join "accounts" as "a" on "a"."id" = "j"."account_id"
where
  "j"."room_id" = $1
  and "j"."status" = $2
  and "j"."id" > $3::uuid
order by
  "j"."id"
limit
  $4;

-- pendingRequestsOf
select
  "j"."id",
  "j"."room_id",
  "j"."account_id",
  "a"."display_name",
  "a"."avatar_url",
  "j"."requested_by",
  "j"."status",
  "j"."created_at",
  "j"."resolved_at",
  "j"."resolved_by"
from
  "join_requests" as "j"
  inner join "accounts" as "a" on "a"."id" = "j"."account_id"
where
  "j"."room_id" = $1
  and "j"."account_id" = any ($2::uuid[])
  and "j"."status" = $3
order by
  "j"."id";
