-- The SQL of src/chat/channels/queries.ts, one section per exported function (make snapshots writes this file).

-- channelMemberOf
select
  "m"."account_id",
  "m"."role",
  "m"."joined_at",
  "a"."display_name",
  "a"."avatar_url",
  "a"."account_type"
from
  "channel_members" as "m"
  inner join "accounts" as "a" on "a"."id" = "m"."account_id"
where
  "m"."channel_id" = $1
  and "m"."account_id" = $2;

-- channelMemberPage
select
  "m"."account_id",
  "m"."role",
  "m"."joined_at",
  "a"."display_name",
  "a"."avatar_url",
  "a"."account_type"
from
  "channel_members" as "m"
  inner join "accounts" as "a" on "a"."id" = "m"."account_id"
where
  "m"."channel_id" = $1
  and ("m"."joined_at", "m"."account_id") > ($2::timestamptz, $3::uuid)
order by
  "m"."joined_at",
  "m"."account_id"
limit
  $4;

-- channelOf
select
  "c"."id",
  "c"."name",
  "c"."description",
  "c"."membership_mode",
  "c"."rule",
  "c"."member_count",
  "c"."created_by",
  "c"."created_at",
  "m"."role" as "my_role",
  "m"."pinned"
from
  "channel_members" as "m"
  inner join "channels" as "c" on "c"."id" = "m"."channel_id"
  and "c"."deleted_at" is null
where
  "m"."account_id" = $1
  and "c"."id" = $2;

-- channelPage
select
  "c"."id",
  "c"."name",
  "c"."description",
  "c"."membership_mode",
  "c"."rule",
  "c"."member_count",
  "c"."created_by",
  "c"."created_at",
  "m"."role" as "my_role",
  "m"."pinned"
from
  "channel_members" as "m"
  inner join "channels" as "c" on "c"."id" = "m"."channel_id"
  and "c"."deleted_at" is null
where
  "m"."account_id" = $1
  and ("m"."pinned", "c"."created_at", "c"."id") < ($2::boolean, $3::timestamptz, $4::uuid)
order by
  "m"."pinned" desc,
  "c"."created_at" desc,
  "c"."id" desc
limit
  $5;

-- channelSettings
select
  "name",
  "description"
from
  "channels"
where
  "id" = $1;

-- deleteAllMembers
delete from "channel_members"
where
  "channel_id" = $1
returning
  "account_id";

-- insertChannel
insert into
  "channels" (
    "id",
    "module_code",
    "customer_account_id",
    "name",
    "description",
    "membership_mode",
    "rule",
    "member_count",
    "created_by",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- insertMembers
insert into
  "channel_members" ("channel_id", "account_id", "role", "joined_at")
select
  $1::uuid as "channel_id",
  unnest($2::uuid[]) as "account_id",
  'MEMBER' as "role",
  $3::timestamptz as "joined_at";

-- isChannelMember
select
  1 as "one"
from
  "channel_members"
where
  "channel_id" = $1
  and "account_id" = $2;

-- lockPin
select
  "m"."pinned"
from
  "channel_members" as "m"
  inner join "channels" as "c" on "c"."id" = "m"."channel_id"
  and "c"."deleted_at" is null
where
  "m"."channel_id" = $1
  and "m"."account_id" = $2
for update of
  "m";

-- markChannelDeleted
update "channels"
set
  "deleted_at" = $1,
  "member_count" = $2
where
  "id" = $3;

-- writeChannelSettings
update "channels"
set
  "name" = $1,
  "description" = $2
where
  "id" = $3;

-- writePin
update "channel_members"
set
  "pinned" = $1
where
  "channel_id" = $2
  and "account_id" = $3;

-- writeRule
update "channels"
set
  "rule" = $1
where
  "id" = $2;
