-- The SQL of src/chat/scheduled/queries.ts, one section per exported function (make snapshots writes this file).

-- cancelScheduled
update "scheduled_messages"
set
  "status" = $1,
  "updated_at" = $2
where
  "id" = $3
returning
  "id",
  "room_id",
  "sender_id",
  "text",
  "thread_root_id",
  "send_at",
  "status",
  "message_id",
  "failure_reason",
  "fired_at",
  "created_at",
  "updated_at";

-- insertScheduled
insert into
  "scheduled_messages" (
    "id",
    "room_id",
    "sender_id",
    "text",
    "thread_root_id",
    "send_at",
    "status",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
returning
  "id",
  "room_id",
  "sender_id",
  "text",
  "thread_root_id",
  "send_at",
  "status",
  "message_id",
  "failure_reason",
  "fired_at",
  "created_at",
  "updated_at";

-- ownScheduled
select
  "id",
  "room_id",
  "sender_id",
  "text",
  "thread_root_id",
  "send_at",
  "status",
  "message_id",
  "failure_reason",
  "fired_at",
  "created_at",
  "updated_at"
from
  "scheduled_messages"
where
  "id" = $1
  and "sender_id" = $2
  and "status" <> $3;

select
  "id",
  "room_id",
  "sender_id",
  "text",
  "thread_root_id",
  "send_at",
  "status",
  "message_id",
  "failure_reason",
  "fired_at",
  "created_at",
  "updated_at"
from
  "scheduled_messages"
where
  "id" = $1
  and "sender_id" = $2
  and "status" <> $3
for update;

-- scheduledOf
select
  "id",
  "room_id",
  "sender_id",
  "text",
  "thread_root_id",
  "send_at",
  "status",
  "message_id",
  "failure_reason",
  "fired_at",
  "created_at",
  "updated_at"
from
  "scheduled_messages"
where
  "sender_id" = $1
  and "status" = $2
  and "room_id" = $3
  and (send_at, id) > ($4::timestamptz, $5::uuid)
order by
  "send_at",
  "id"
limit
  $6;

-- threadRootOf
select
  "r"."id" as "root_id",
  "r"."recalled_at" is not null as "recalled"
from
  "messages" as "m"
  inner join "messages" as "r" on "r"."id" = coalesce("m"."thread_root_id", "m"."id")
where
  "m"."room_id" = $1
  and "m"."id" = $2;

-- updateScheduled
update "scheduled_messages"
set
  "text" = $1,
  "send_at" = $2,
  "updated_at" = $3
where
  "id" = $4
returning
  "id",
  "room_id",
  "sender_id",
  "text",
  "thread_root_id",
  "send_at",
  "status",
  "message_id",
  "failure_reason",
  "fired_at",
  "created_at",
  "updated_at";
