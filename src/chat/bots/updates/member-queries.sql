-- The SQL of src/chat/bots/updates/member-queries.ts, one section per exported function (make snapshots writes this file).

-- listeningBots
select
  "b"."id",
  "b"."account_id"
from
  "room_members" as "m"
  inner join "bots" as "b" on "b"."account_id" = "m"."account_id"
  and "b"."deleted_at" is null
where
  "m"."room_id" = $1
  and 'chat_member' = any (b.allowed_updates)
order by
  "b"."id";

-- people
select
  "a"."id",
  "a"."bot_api_id",
  "a"."display_name",
  "a"."account_type",
  "b"."id" as "bot_id",
  "b"."username",
  "b"."allowed_updates"
from
  "accounts" as "a"
  left join "bots" as "b" on "b"."account_id" = "a"."id"
  and "b"."deleted_at" is null
where
  a.id = any ($1::uuid[]);

-- roomOf
select
  "r"."bot_api_id",
  "r"."type",
  "r"."name",
  (
    select
      "o"."account_id"
    from
      "room_members" as "o"
    where
      "o"."room_id" = "r"."id"
      and "o"."role" = $1
    order by
      "o"."joined_at"
    limit
      $2
  ) as "owner_id",
  (
    select
      coalesce(
        json_agg(
          json_build_object('account_id', x.account_id, 'role', x.role)
        ),
        '[]'
      ) as "m"
    from
      "room_members" as "x"
    where
      "x"."room_id" = "r"."id"
  ) as "roles"
from
  "rooms" as "r"
where
  "r"."id" = $3;
