-- The SQL of src/chat/bots/updates/queries.ts, one section per exported function (make snapshots writes this file).

-- callbackPresses
select
  "e"."ord",
  "q"."id",
  "q"."bot_id",
  "q"."message_id",
  "q"."data",
  "q"."account_id",
  "a"."bot_api_id" as "account_api_id",
  "a"."display_name",
  "a"."account_type",
  "q"."room_id",
  "b"."allowed_updates"
from
  unnest($1::uuid[], $2::int[]) as e (id, ord)
  inner join "bot_callback_queries" as "q" on "q"."id" = "e"."id"
  inner join "bots" as "b" on "b"."id" = "q"."bot_id"
  and "b"."deleted_at" is null
  inner join "accounts" as "a" on "a"."id" = "q"."account_id"
order by
  "e"."ord";

-- countUpdates
update "bots" as "b"
set
  "last_update_id" = "b"."last_update_id" + "c"."n"
from
  unnest($1::uuid[], $2::int[]) as c (id, n)
where
  "b"."id" = "c"."id"
returning
  "b"."id",
  "b"."last_update_id";

-- insertUpdates
insert into
  "bot_updates" (
    "id",
    "bot_id",
    "update_id",
    "kind",
    "payload",
    "created_at"
  )
select
  "u"."id",
  "u"."bot_id",
  "u"."update_id",
  "u"."kind",
  "u"."payload",
  $1::timestamptz as "created_at"
from
  unnest(
    $2::uuid[],
    $3::uuid[],
    $4::bigint[],
    $5::text[],
    $6::jsonb[]
  ) as u (id, bot_id, update_id, kind, payload);

-- lockBotsForUpdates
select
  "id",
  "webhook_url" is not null as "has_webhook"
from
  "bots"
where
  id = any ($1::uuid[])
order by
  "id"
for update;

-- messageCandidates
select
  "e"."ord",
  "e"."message_id",
  "b"."id" as "bot_id",
  "b"."account_id",
  "b"."username",
  coalesce("s"."read_all", false) as "read_all",
  "b"."allowed_updates"
from
  unnest($1::uuid[], $2::uuid[], $3::int[]) as e (room_id, message_id, ord)
  inner join "room_members" as "m" on "m"."room_id" = "e"."room_id"
  inner join "bots" as "b" on "b"."account_id" = "m"."account_id"
  and "b"."deleted_at" is null
  left join "bot_room_settings" as "s" on "s"."bot_id" = "b"."id"
  and "s"."room_id" = "e"."room_id"
order by
  "e"."ord",
  "b"."id";

-- pruneUpdatesBefore
delete from "bot_updates"
where
  "created_at" < $1;

delete from "bot_callback_queries"
where
  "created_at" < $1;
