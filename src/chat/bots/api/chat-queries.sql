-- The SQL of src/chat/bots/api/chat-queries.ts, one section per exported function (make snapshots writes this file).

-- chatOfRoom
select
  "r"."bot_api_id",
  "r"."type",
  "r"."name",
  (
    select
      "a"."display_name"
    from
      "room_members" as "o"
      inner join "accounts" as "a" on "a"."id" = "o"."account_id"
    where
      "o"."room_id" = "r"."id"
      and "o"."account_id" <> $1
    order by
      "o"."joined_at"
    limit
      $2
  ) as "other_name"
from
  "rooms" as "r"
where
  "r"."id" = $3;

-- latestPinnedMessage
select
  "message_id"
from
  "room_pins"
where
  "room_id" = $1
order by
  "pinned_at" desc
limit
  $2;

-- memberCount
select
  count(*)::int as "n"
from
  "room_members"
where
  "room_id" = $1;

-- memberRoom
select
  "room_id"
from
  "room_members"
where
  "room_id" = $1
  and "account_id" = $2;

-- privateRoomWithUser
select
  "r"."id"
from
  "accounts" as "a"
  inner join "room_members" as "o" on "o"."account_id" = "a"."id"
  inner join "rooms" as "r" on "r"."id" = "o"."room_id"
  and "r"."type" = $1
  inner join "room_members" as "m" on "m"."room_id" = "r"."id"
  and "m"."account_id" = $2
where
  "a"."bot_api_id" = $3
  and "a"."id" <> $4
order by
  "r"."id"
limit
  $5;

-- roomByNumber
select
  "r"."id"
from
  "rooms" as "r"
  inner join "room_members" as "m" on "m"."room_id" = "r"."id"
  and "m"."account_id" = $1
where
  r.bot_api_id = abs($2::bigint)
  and (r.type = 'PRIVATE') = ($3::bigint > 0);

-- roomManagers
select
  "m"."role",
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
  and "m"."role" in ($2, $3)
order by
  m.role = 'OWNER' desc,
  "m"."joined_at",
  "a"."bot_api_id";

-- roomMemberByUserId
select
  "m"."role",
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
  and "a"."bot_api_id" = $2;
