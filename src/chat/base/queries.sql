-- The SQL of src/chat/base/queries.ts, one section per exported function (make snapshots writes this file).

-- channelAccessRow
select
  "c"."membership_mode",
  "c"."module_code",
  "c"."customer_account_id",
  "c"."rule",
  "m"."role"
from
  "channels" as "c"
  inner join "channel_members" as "m" on "m"."channel_id" = "c"."id"
  and "m"."account_id" = $1
where
  "c"."id" = $2
  and "c"."deleted_at" is null
for update of
  "c";

-- memberExists
select
  1 as "one"
from
  "room_members"
where
  "room_id" = $1
  and "account_id" = $2;

-- memberRole
select
  "role"
from
  "room_members"
where
  "room_id" = $1
  and "account_id" = $2;

-- membershipRow
select
  "r"."type",
  "r"."add_member_policy",
  "m"."role"
from
  "rooms" as "r"
  inner join "room_members" as "m" on "m"."room_id" = "r"."id"
  and "m"."account_id" = $1
where
  "r"."id" = $2
  and "r"."deleted_at" is null
for update of
  "r";

-- sentMessage
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
  exists (
    select
      1 as "one"
    from
      "room_members"
    where
      "room_members"."room_id" = $1
      and "room_members"."account_id" = $2
  ) as "member"
from
  "messages"
where
  "room_id" = $3
  and "sender_id" = $4
  and "client_message_id" = $5;
