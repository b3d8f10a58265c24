-- The SQL of src/chat/bots/keyboard-queries.ts, one section per exported function (make snapshots writes this file).

-- insertPress
insert into
  "bot_callback_queries" (
    "id",
    "bot_id",
    "room_id",
    "message_id",
    "account_id",
    "data",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7);

-- latestReplyMarkup
select
  "m"."id",
  "m"."seq",
  m.reply_markup as "markup"
from
  "messages" as "m"
where
  "m"."room_id" = $1
  and "m"."reply_markup" is not null
  and "m"."recalled_at" is null
  and m.reply_markup ->> 'kind' in ($2, $3)
  and (
    (m.reply_markup ->> 'selective')::boolean = $4
    or m.reply_markup -> 'recipients' ? $5 = $6
  )
order by
  "m"."seq" desc
limit
  $7;

-- pressedMessage
select
  "m"."recalled_at",
  "b"."id" as "bot_id",
  "m"."inline_keyboard" as "inline_keyboard",
  exists (
    select
      1 as "one"
    from
      "room_members" as "rm"
    where
      "rm"."room_id" = "m"."room_id"
      and "rm"."account_id" = "m"."sender_id"
  ) as "bot_member"
from
  "messages" as "m"
  left join "bots" as "b" on "b"."account_id" = "m"."sender_id"
  and "b"."deleted_at" is null
where
  "m"."room_id" = $1
  and "m"."id" = $2;

-- sentOneOf
select
  1 as "one"
from
  "messages"
where
  "room_id" = $1
  and "sender_id" = $2
  and "seq" > $3
  and "text" = any ($4::text[])
limit
  $5;
