-- The SQL of src/chat/saved/queries.ts, one section per exported function (make snapshots writes this file).

-- deleteSavedCard
delete from "saved_messages"
where
  "id" = $1
  and "account_id" = $2
returning
  "room_id",
  "message_id";

-- messageRecalled
select
  "recalled_at" is not null as "recalled"
from
  "messages"
where
  "room_id" = $1
  and "id" = $2
for key share;

-- savedCard
select
  "s"."id" as "saved_id",
  "s"."note",
  "s"."saved_at",
  "s"."updated_at" as "saved_updated_at",
  "x"."id",
  "x"."room_id",
  "x"."seq",
  "x"."sender_id",
  "x"."type",
  "x"."text",
  "x"."client_message_id",
  "x"."thread_root_id",
  "x"."created_at",
  "x"."edited_at",
  "x"."recalled_at",
  "x"."forwarded_from_room_id",
  "x"."forwarded_from_message_id",
  "x"."poll_id",
  "x"."attachments",
  "x"."inline_keyboard",
  "x"."entities",
  "x"."reply_markup",
  "x"."formatting",
  "x"."reply_count",
  exists (
    select
      1 as "one"
    from
      "message_hides" as "h"
    where
      "h"."account_id" = $1
      and "h"."message_id" = "x"."id"
  ) as "hidden_for_me"
from
  "saved_messages" as "s"
  inner join "messages" as "x" on "x"."id" = "s"."message_id"
  inner join "room_members" as "m" on "m"."room_id" = "s"."room_id"
  and "m"."account_id" = "s"."account_id"
where
  "s"."account_id" = $2
  and "s"."id" = $3;

-- savedCards
select
  "s"."id" as "saved_id",
  "s"."note",
  "s"."saved_at",
  "s"."updated_at" as "saved_updated_at",
  "x"."id",
  "x"."room_id",
  "x"."seq",
  "x"."sender_id",
  "x"."type",
  "x"."text",
  "x"."client_message_id",
  "x"."thread_root_id",
  "x"."created_at",
  "x"."edited_at",
  "x"."recalled_at",
  "x"."forwarded_from_room_id",
  "x"."forwarded_from_message_id",
  "x"."poll_id",
  "x"."attachments",
  "x"."inline_keyboard",
  "x"."entities",
  "x"."reply_markup",
  "x"."formatting",
  "x"."reply_count",
  exists (
    select
      1 as "one"
    from
      "message_hides" as "h"
    where
      "h"."account_id" = $1
      and "h"."message_id" = "x"."id"
  ) as "hidden_for_me"
from
  "saved_messages" as "s"
  inner join "messages" as "x" on "x"."id" = "s"."message_id"
  inner join "room_members" as "m" on "m"."room_id" = "s"."room_id"
  and "m"."account_id" = "s"."account_id"
where
  "s"."account_id" = $2
  and (s.saved_at, s.id) < ($3::timestamptz, $4::text)
order by
  "s"."saved_at" desc,
  "s"."id" desc
limit
  $5;

-- savedIdOf
select
  "id"
from
  "saved_messages"
where
  "account_id" = $1
  and "message_id" = $2;

-- updateSavedNote
with
  "card" as (
    select
      "id",
      "note"
    from
      "saved_messages"
    where
      "id" = $1
      and "account_id" = $2
    for update
  ),
  "moved" as (
    update "saved_messages" as "s"
    set
      "note" = $3,
      "updated_at" = $4
    from
      "card"
    where
      "s"."id" = "card"."id"
      and "card"."note" is distinct from $5
    returning
      "s"."room_id",
      "s"."message_id"
  )
select
  (
    select
      "room_id"
    from
      "moved"
  ) as "room_id",
  (
    select
      "message_id"
    from
      "moved"
  ) as "message_id",
  exists (
    select
      1 as "one"
    from
      "moved"
  ) as "changed"
where
  exists (
    select
      1 as "one"
    from
      "card"
  );

-- upsertSavedCard
insert into
  "saved_messages" (
    "id",
    "account_id",
    "room_id",
    "message_id",
    "note",
    "saved_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7)
on conflict ("account_id", "message_id") do update
set
  "note" = "excluded"."note",
  "updated_at" = "excluded"."updated_at"
where
  $8::boolean
  and "saved_messages"."note" is distinct from "excluded"."note"
returning
  "id",
  xmax = 0 as "inserted";
