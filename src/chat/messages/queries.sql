-- The SQL of src/chat/messages/queries.ts, one section per exported function (make snapshots writes this file).

-- deleteReactions
delete from "message_reactions"
where
  "message_id" = $1;

-- editMessage
update "messages"
set
  "text" = $1,
  "edited_at" = $2,
  "formatting" = $3
where
  "room_id" = $4
  and "id" = $5
returning
  "id",
  "room_id",
  "seq",
  "sender_id",
  "type",
  "text",
  "client_message_id",
  "thread_root_id",
  "created_at",
  "edited_at",
  "recalled_at",
  "forwarded_from_room_id",
  "forwarded_from_message_id",
  "poll_id",
  "attachments",
  "inline_keyboard",
  "entities",
  "reply_markup",
  "formatting",
  "reply_count",
  exists (
    (
      select
        1 as "one"
      from
        "message_hides" as "h"
      where
        "h"."account_id" = $6
        and "h"."message_id" = "messages"."id"
    )
  ) as "hidden_for_me";

-- hideMessage
insert into
  "message_hides" (
    "account_id",
    "message_id",
    "room_id",
    "hidden_at"
  )
values
  ($1, $2, $3, $4)
on conflict ("account_id", "message_id") do nothing;

-- lockRoom
select
  1 as "locked"
from
  "rooms"
where
  "id" = $1
for no key update;

-- messageOf
select
  "id",
  "room_id",
  "seq",
  "sender_id",
  "type",
  "text",
  "client_message_id",
  "thread_root_id",
  "created_at",
  "edited_at",
  "recalled_at",
  "forwarded_from_room_id",
  "forwarded_from_message_id",
  "poll_id",
  "attachments",
  "inline_keyboard",
  "entities",
  "reply_markup",
  "formatting",
  "reply_count",
  exists (
    (
      select
        1 as "one"
      from
        "message_hides" as "h"
      where
        "h"."account_id" = $1
        and "h"."message_id" = "messages"."id"
    )
  ) as "hidden_for_me"
from
  "messages"
where
  "room_id" = $2
  and "id" = $3
for key share;

-- recallMessage
update "messages"
set
  "recalled_at" = $1,
  "text" = $2
where
  "room_id" = $3
  and "id" = $4
returning
  "id",
  "room_id",
  "seq",
  "sender_id",
  "type",
  "text",
  "client_message_id",
  "thread_root_id",
  "created_at",
  "edited_at",
  "recalled_at",
  "forwarded_from_room_id",
  "forwarded_from_message_id",
  "poll_id",
  "attachments",
  "inline_keyboard",
  "entities",
  "reply_markup",
  "formatting",
  "reply_count",
  exists (
    (
      select
        1 as "one"
      from
        "message_hides" as "h"
      where
        "h"."account_id" = $5
        and "h"."message_id" = "messages"."id"
    )
  ) as "hidden_for_me";

-- restoreMessage
delete from "message_hides"
where
  "account_id" = $1
  and "message_id" = $2;

-- setAttachments
update "messages"
set
  "attachments" = $1
where
  "id" = $2
returning
  "id",
  "room_id",
  "seq",
  "sender_id",
  "type",
  "text",
  "client_message_id",
  "thread_root_id",
  "created_at",
  "edited_at",
  "recalled_at",
  "forwarded_from_room_id",
  "forwarded_from_message_id",
  "poll_id",
  "attachments",
  "inline_keyboard",
  "entities",
  "reply_markup",
  "formatting";

-- unpinRecalled
delete from "personal_pins"
where
  "message_id" = $1;

delete from "room_pins"
where
  "room_id" = $1
  and "message_id" = $2;

update "rooms"
set
  "snap_message_id" = $1,
  "snapped_by" = $2,
  "snapped_at" = $3
where
  "id" = $4
  and "snap_message_id" = $5;
