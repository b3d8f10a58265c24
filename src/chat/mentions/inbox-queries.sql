-- The SQL of src/chat/mentions/inbox-queries.ts, one section per exported function (make snapshots writes this file).

-- markMentionRead
with
  "target" as (
    select
      "mn"."account_id",
      "mn"."message_id",
      "mn"."room_id",
      "mn"."read_at"
    from
      "mentions" as "mn"
      inner join "room_members" as "m" on "m"."room_id" = "mn"."room_id"
      and "m"."account_id" = "mn"."account_id"
    where
      "mn"."account_id" = $1
      and "mn"."message_id" = $2
  ),
  "marked" as (
    update "mentions" as "mn"
    set
      "read_at" = $3
    from
      "target" as "t"
    where
      "mn"."account_id" = "t"."account_id"
      and "mn"."message_id" = "t"."message_id"
      and "t"."read_at" is null
    returning
      "mn"."message_id"
  )
select
  "t"."room_id",
  exists (
    select
      1 as "one"
    from
      "marked"
  ) as "marked"
from
  "target" as "t";

-- markMentionsRead
update "mentions" as "mn"
set
  "read_at" = $1
from
  "room_members" as "m"
where
  "mn"."account_id" = $2
  and "mn"."read_at" is null
  and "mn"."room_id" = $3
  and "m"."room_id" = "mn"."room_id"
  and "m"."account_id" = "mn"."account_id"
  and "mn"."seq" > "m"."last_read_seq"
returning
  "mn"."message_id";

-- mentionInboxRows
select
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
    (
      select
        1 as "one"
      from
        "message_hides" as "h"
      where
        "h"."account_id" = $1
        and "h"."message_id" = "x"."id"
    )
  ) as "hidden_for_me",
  "r"."type" as "room_type",
  "r"."name" as "room_name",
  not (
    mn.read_at is null
    and mn.seq > m.last_read_seq
  ) as "read",
  "mn"."created_at" as "mentioned_at"
from
  "mentions" as "mn"
  inner join "room_members" as "m" on "m"."room_id" = "mn"."room_id"
  and "m"."account_id" = "mn"."account_id"
  inner join "rooms" as "r" on "r"."id" = "mn"."room_id"
  and "r"."deleted_at" is null
  inner join "messages" as "x" on "x"."id" = "mn"."message_id"
where
  "mn"."account_id" = $2
  and (mn.created_at, mn.message_id) < ($3::timestamptz, $4::uuid)
  and mn.read_at is null
  and mn.seq > m.last_read_seq
  and not exists (
    select
      1 as "one"
    from
      "message_hides" as "h"
    where
      "h"."account_id" = $5
      and "h"."message_id" = "mn"."message_id"
  )
order by
  "mn"."created_at" desc,
  "mn"."message_id" desc
limit
  $6;
