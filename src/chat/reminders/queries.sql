-- The SQL of src/chat/reminders/queries.ts, one section per exported function (make snapshots writes this file).

-- activeReminders
select
  "id",
  "owner_id",
  "room_id",
  "bot_id",
  "text",
  "kind",
  "remind_at",
  "recurrence",
  "status",
  "next_fire_at",
  "last_fired_at",
  "fire_count",
  "created_at",
  "updated_at"
from
  "reminders"
where
  "owner_id" = $1
  and "status" = $2
  and (next_fire_at, id) > ($3::timestamptz, $4::uuid)
order by
  "next_fire_at",
  "id"
limit
  $5;

-- cancelReminder
update "reminders"
set
  "status" = $1,
  "next_fire_at" = $2,
  "updated_at" = $3
where
  "id" = $4
returning
  "id",
  "owner_id",
  "room_id",
  "bot_id",
  "text",
  "kind",
  "remind_at",
  "recurrence",
  "status",
  "next_fire_at",
  "last_fired_at",
  "fire_count",
  "created_at",
  "updated_at";

-- insertReminder
insert into
  "reminders" (
    "id",
    "owner_id",
    "room_id",
    "bot_id",
    "text",
    "kind",
    "remind_at",
    "recurrence",
    "status",
    "next_fire_at",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
returning
  "id",
  "owner_id",
  "room_id",
  "bot_id",
  "text",
  "kind",
  "remind_at",
  "recurrence",
  "status",
  "next_fire_at",
  "last_fired_at",
  "fire_count",
  "created_at",
  "updated_at";

-- ownReminder
select
  "id",
  "owner_id",
  "room_id",
  "bot_id",
  "text",
  "kind",
  "remind_at",
  "recurrence",
  "status",
  "next_fire_at",
  "last_fired_at",
  "fire_count",
  "created_at",
  "updated_at"
from
  "reminders"
where
  "id" = $1
  and "owner_id" = $2
  and "status" <> $3;

select
  "id",
  "owner_id",
  "room_id",
  "bot_id",
  "text",
  "kind",
  "remind_at",
  "recurrence",
  "status",
  "next_fire_at",
  "last_fired_at",
  "fire_count",
  "created_at",
  "updated_at"
from
  "reminders"
where
  "id" = $1
  and "owner_id" = $2
  and "status" <> $3
for update;

-- updateReminder
update "reminders"
set
  "text" = $1,
  "kind" = $2,
  "remind_at" = $3,
  "recurrence" = $4,
  "next_fire_at" = $5,
  "updated_at" = $6
where
  "id" = $7
returning
  "id",
  "owner_id",
  "room_id",
  "bot_id",
  "text",
  "kind",
  "remind_at",
  "recurrence",
  "status",
  "next_fire_at",
  "last_fired_at",
  "fire_count",
  "created_at",
  "updated_at";
