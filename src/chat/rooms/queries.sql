-- The SQL of src/chat/rooms/queries.ts, one section per exported function (make snapshots writes this file).

-- accountIdentity
select
  "module_code",
  "customer_account_id",
  "account_type"
from
  "accounts"
where
  "id" = $1;

-- addableAccounts
select
  "id"
from
  "accounts"
where
  "id" = any ($1::uuid[])
  and "status" = $2
  and "customer_account_id" = $3
  and "module_code" = $4;

-- cancelPendingRequests
update "join_requests"
set
  "status" = $1,
  "resolved_at" = $2,
  "resolved_by" = $3
where
  "room_id" = $4
  and "status" = $5;

-- channelMembersBesides
select
  "account_id"
from
  "channel_members"
where
  "channel_id" = $1
  and "account_id" <> $2
order by
  "joined_at",
  "account_id";

-- deleteAllMembers
delete from "room_members"
where
  "room_id" = $1
returning
  "account_id";

-- insertMembers
insert into
  "room_members" (
    "room_id",
    "account_id",
    "role",
    "joined_at",
    "last_read_seq"
  )
select
  $1::uuid as "room_id",
  unnest($2::uuid[]) as "account_id",
  unnest($3::text[]) as "role",
  $4::timestamptz as "joined_at",
  coalesce(
    (
      select
        "last_seq"
      from
        "rooms"
      where
        "id" = $5
    ),
    0
  ) as "last_read_seq"
on conflict do nothing
returning
  "account_id";

-- insertReminderBot
insert into
  "accounts" (
    "id",
    "module_code",
    "customer_account_id",
    "display_name",
    "account_type",
    "status"
  )
values
  ($1, $2, $3, $4, $5, $6)
on conflict ("id") do nothing;

-- insertRoom
insert into
  "rooms" (
    "id",
    "type",
    "name",
    "description",
    "add_member_policy",
    "created_by",
    "member_count",
    "created_at",
    "last_activity_at",
    "channel_id"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- insertSingletonRoom
insert into
  "rooms" (
    "id",
    "type",
    "name",
    "add_member_policy",
    "created_by",
    "member_count",
    "created_at",
    "last_activity_at",
    "singleton_key"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
on conflict ("singleton_key") do nothing
returning
  "id";

-- markRoomDeleted
update "rooms"
set
  "deleted_at" = $1,
  "member_count" = $2
where
  "id" = $3;

-- roomSettings
select
  "name",
  "description",
  "add_member_policy"
from
  "rooms"
where
  "id" = $1;

-- writeRoomSettings
update "rooms"
set
  "name" = $1,
  "description" = $2,
  "add_member_policy" = $3
where
  "id" = $4;
