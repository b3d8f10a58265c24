-- The SQL of src/chat/pins/queries.ts, one section per exported function (make snapshots writes this file).

-- addPersonalPin
insert into
  "personal_pins" (
    "account_id",
    "message_id",
    "room_id",
    "pinned_at"
  )
values
  ($1, $2, $3, $4)
on conflict ("account_id", "message_id") do nothing;

-- addRoomPin
insert into
  "room_pins" ("room_id", "message_id", "pinned_by", "pinned_at")
values
  ($1, $2, $3, $4)
on conflict ("room_id", "message_id") do nothing;

-- clearSnap
update "rooms"
set
  "snap_message_id" = $1,
  "snapped_by" = $2,
  "snapped_at" = $3
where
  "id" = $4;

-- lockedSnap
select
  "snap_message_id",
  "snapped_by",
  "snapped_at"
from
  "rooms"
where
  "id" = $1
for no key update;

-- lockedSnapMessageId
select
  "snap_message_id"
from
  "rooms"
where
  "id" = $1
for no key update;

-- pinnedEntries
with
  "r" as (
    select
      "message_id",
      "pinned_by",
      "pinned_at"
    from
      "room_pins"
    where
      "room_id" = $1
  ),
  "p" as (
    select
      "message_id",
      "pinned_at"
    from
      "personal_pins"
    where
      "account_id" = $2
      and "room_id" = $3
  ),
  "e" as (
    select
      coalesce("r"."message_id", "p"."message_id") as "message_id",
      "r"."message_id" is not null as "room_scope",
      "p"."message_id" is not null as "personal",
      coalesce("r"."pinned_at", "p"."pinned_at") as "entry_pinned_at",
      "r"."pinned_by"
    from
      "r"
      full join "p" on "p"."message_id" = "r"."message_id"
  )
select
  "m"."id",
  "m"."room_id",
  "m"."seq",
  "m"."sender_id",
  "m"."type" as "type",
  "m"."text",
  "m"."client_message_id",
  "m"."thread_root_id",
  "m"."created_at",
  "m"."edited_at",
  "m"."recalled_at",
  "m"."forwarded_from_room_id",
  "m"."forwarded_from_message_id",
  "m"."poll_id",
  "m"."attachments" as "attachments",
  "m"."inline_keyboard" as "inline_keyboard",
  "m"."entities" as "entities",
  "m"."reply_markup" as "reply_markup",
  "m"."formatting" as "formatting",
  "m"."reply_count",
  exists (
    select
      1 as "one"
    from
      "message_hides" as "h"
    where
      "h"."account_id" = $4
      and "h"."message_id" = "m"."id"
  ) as "hidden_for_me",
  "e"."room_scope",
  "e"."personal",
  "e"."entry_pinned_at",
  "e"."pinned_by"
from
  "e"
  inner join "messages" as "m" on "m"."id" = "e"."message_id"
order by
  "e"."entry_pinned_at" desc,
  "e"."message_id" desc;

-- pinnedEntry
with
  "r" as (
    select
      "message_id",
      "pinned_by",
      "pinned_at"
    from
      "room_pins"
    where
      "room_id" = $1
  ),
  "p" as (
    select
      "message_id",
      "pinned_at"
    from
      "personal_pins"
    where
      "account_id" = $2
      and "room_id" = $3
  ),
  "e" as (
    select
      coalesce("r"."message_id", "p"."message_id") as "message_id",
      "r"."message_id" is not null as "room_scope",
      "p"."message_id" is not null as "personal",
      coalesce("r"."pinned_at", "p"."pinned_at") as "entry_pinned_at",
      "r"."pinned_by"
    from
      "r"
      full join "p" on "p"."message_id" = "r"."message_id"
  )
select
  "m"."id",
  "m"."room_id",
  "m"."seq",
  "m"."sender_id",
  "m"."type" as "type",
  "m"."text",
  "m"."client_message_id",
  "m"."thread_root_id",
  "m"."created_at",
  "m"."edited_at",
  "m"."recalled_at",
  "m"."forwarded_from_room_id",
  "m"."forwarded_from_message_id",
  "m"."poll_id",
  "m"."attachments" as "attachments",
  "m"."inline_keyboard" as "inline_keyboard",
  "m"."entities" as "entities",
  "m"."reply_markup" as "reply_markup",
  "m"."formatting" as "formatting",
  "m"."reply_count",
  exists (
    select
      1 as "one"
    from
      "message_hides" as "h"
    where
      "h"."account_id" = $4
      and "h"."message_id" = "m"."id"
  ) as "hidden_for_me",
  "e"."room_scope",
  "e"."personal",
  "e"."entry_pinned_at",
  "e"."pinned_by"
from
  "e"
  inner join "messages" as "m" on "m"."id" = "e"."message_id"
where
  "e"."message_id" = $5;

-- removePersonalPin
delete from "personal_pins"
where
  "account_id" = $1
  and "message_id" = $2;

-- removeRoomPin
delete from "room_pins"
where
  "room_id" = $1
  and "message_id" = $2;

-- setSnap
update "rooms"
set
  "snap_message_id" = $1,
  "snapped_by" = $2,
  "snapped_at" = $3
where
  "id" = $4;

-- snapMessage
select
  "m"."id",
  "m"."room_id",
  "m"."seq",
  "m"."sender_id",
  "m"."type" as "type",
  "m"."text",
  "m"."client_message_id",
  "m"."thread_root_id",
  "m"."created_at",
  "m"."edited_at",
  "m"."recalled_at",
  "m"."forwarded_from_room_id",
  "m"."forwarded_from_message_id",
  "m"."poll_id",
  "m"."attachments" as "attachments",
  "m"."inline_keyboard" as "inline_keyboard",
  "m"."entities" as "entities",
  "m"."reply_markup" as "reply_markup",
  "m"."formatting" as "formatting",
  "m"."reply_count",
  exists (
    select
      1 as "one"
    from
      "message_hides" as "h"
    where
      "h"."account_id" = $1
      and "h"."message_id" = "m"."id"
  ) as "hidden_for_me"
from
  "rooms" as "r"
  inner join "messages" as "m" on "m"."id" = "r"."snap_message_id"
where
  "r"."id" = $2;
