-- The SQL of src/chat/bots/api/member-queries.ts, one section per exported function (make snapshots writes this file).

-- membersByUserId
select
  "a"."id",
  "a"."bot_api_id",
  "a"."display_name",
  "a"."account_type",
  "b"."username"
from
  "room_members" as "m"
  inner join "accounts" as "a" on "a"."id" = "m"."account_id"
  left join "bots" as "b" on "b"."account_id" = "a"."id"
  and "b"."deleted_at" is null
where
  "m"."room_id" = $1
  and a.bot_api_id = any ($2::bigint[]);

-- membersByUsername
select
  "rm"."account_id"
from
  "room_members" as "rm"
  inner join "accounts" as "a" on "a"."id" = "rm"."account_id"
where
  "rm"."room_id" = $1
  and lower(a.username) = any ($2::text[]);

-- privatePeer
select
  "rm"."account_id"
from
  "room_members" as "rm"
  inner join "rooms" as "r" on "r"."id" = "rm"."room_id"
where
  "rm"."room_id" = $1
  and "r"."type" = $2
  and "rm"."account_id" != $3;
