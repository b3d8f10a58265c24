-- The SQL of src/chat/bots/updates/reaction-queries.ts, one section per exported function (make snapshots writes this file).

-- reactionCandidates
select
  "e"."ord",
  "b"."id" as "bot_id",
  "msg"."seq",
  "r"."bot_api_id" as "room_api_id",
  "r"."type" as "room_type",
  "r"."name" as "room_name",
  "ua"."bot_api_id" as "user_api_id",
  "ua"."display_name",
  "ua"."account_type",
  array(
    select
      x.emoji
    from
      message_reactions x
    where
      x.message_id = e.message_id
      and x.account_id = e.account_id
    order by
      x.created_at,
      x.emoji
  ) as "current"
from
  unnest($1::int[], $2::uuid[], $3::uuid[]) as e (ord, message_id, account_id)
  inner join "messages" as "msg" on "msg"."id" = "e"."message_id"
  inner join "rooms" as "r" on "r"."id" = "msg"."room_id"
  inner join "accounts" as "ua" on "ua"."id" = "e"."account_id"
  and "ua"."account_type" <> $4
  inner join "room_members" as "m" on "m"."room_id" = "msg"."room_id"
  inner join "bots" as "b" on "b"."account_id" = "m"."account_id"
  and "b"."deleted_at" is null
where
  'message_reaction' = any (b.allowed_updates)
order by
  "e"."ord",
  "b"."id";
