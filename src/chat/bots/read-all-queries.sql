-- The SQL of src/chat/bots/read-all-queries.ts, one section per exported function (make snapshots writes this file).

-- isRoomMember
select
  "room_id"
from
  "room_members"
where
  "room_id" = $1
  and "account_id" = $2;

-- readAllOf
select
  "read_all"
from
  "bot_room_settings"
where
  "bot_id" = $1
  and "room_id" = $2;

-- upsertReadAll
insert into
  "bot_room_settings" ("bot_id", "room_id", "read_all", "updated_at")
values
  ($1, $2, $3, $4)
on conflict ("bot_id", "room_id") do update
set
  "read_all" = "excluded"."read_all",
  "updated_at" = "excluded"."updated_at";
