-- The SQL of src/chat/realtime/event-view-queries.ts, one section per exported function (make snapshots writes this file).

-- eventMemberRows
select
  "m"."room_id",
  "m"."account_id",
  "m"."role",
  "m"."joined_at",
  "a"."display_name",
  "a"."avatar_url",
  "a"."account_type"
from
  unnest($1::uuid[], $2::uuid[]) as k (room_id, account_id)
  inner join "room_members" as "m" on "m"."room_id" = "k"."room_id"
  and "m"."account_id" = "k"."account_id"
  inner join "accounts" as "a" on "a"."id" = "m"."account_id";

-- eventMessageRows
select
  "m"."id",
  "m"."room_id",
  "m"."seq",
  "m"."sender_id",
  "m"."type",
  "m"."text",
  "m"."client_message_id",
  "m"."thread_root_id",
  "m"."created_at",
  "m"."edited_at",
  "m"."recalled_at",
  "m"."forwarded_from_room_id",
  "m"."forwarded_from_message_id",
  "m"."poll_id",
  "m"."attachments",
  "m"."inline_keyboard",
  "m"."entities",
  "m"."reply_markup",
  "m"."formatting",
  "m"."reply_count",
  "m"."last_reply_at",
  "lr"."id" as "lr_id",
  "lr"."sender_id" as "lr_sender_id",
  "lr"."text" as "lr_text",
  "lr"."recalled_at" as "lr_recalled_at",
  "lr"."created_at" as "lr_created_at"
from
  "messages" as "m"
  left join lateral (
    select
      "r"."id",
      "r"."sender_id",
      "r"."text",
      "r"."recalled_at",
      "r"."created_at"
    from
      "messages" as "r"
    where
      "m"."reply_count" > 0
      and "m"."thread_root_id" is null
      and "r"."thread_root_id" = "m"."id"
    order by
      "r"."seq" desc
    limit
      1
  ) as "lr" on true
where
  "m"."id" = any ($1::uuid[]);

-- eventRoomRows
select
  "r"."id",
  "r"."type",
  "r"."name",
  "r"."description",
  "r"."add_member_policy",
  "r"."channel_id",
  "r"."member_count",
  "r"."created_by",
  "r"."created_at",
  "r"."last_activity_at",
  "lm"."id" as "last_id",
  "lm"."sender_id" as "last_sender_id",
  "lm"."text" as "last_text",
  "lm"."recalled_at" as "last_recalled_at",
  "lm"."created_at" as "last_created_at"
from
  "rooms" as "r"
  left join lateral (
    select
      "x"."id",
      "x"."sender_id",
      "x"."text",
      "x"."recalled_at",
      "x"."created_at"
    from
      "messages" as "x"
    where
      "x"."room_id" = "r"."id"
      and "x"."thread_root_id" is null
    order by
      "x"."seq" desc
    limit
      1
  ) as "lm" on true
where
  "r"."id" = any ($1::uuid[])
  and "r"."deleted_at" is null;

-- reactionCountRows
select
  "message_id",
  "emoji",
  count(*)::int as "count"
from
  "message_reactions"
where
  "message_id" = any ($1::uuid[])
group by
  "message_id",
  "emoji"
order by
  "message_id",
  min(created_at),
  "emoji";
