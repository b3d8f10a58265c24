-- The SQL of src/chat/threads/thread-queries.ts, one section per exported function (make snapshots writes this file).

-- accountsAudience
select
  jsonb_build_object(
    'kind',
    'accounts',
    'accountIds',
    jsonb_build_array($1)
  ) as "audience";

-- threadFactsOf
with
  "t" as (
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
      "m"."last_reply_at" as "last_reply_at"
    from
      "messages" as "m"
    where
      "m"."reply_count" > 0
      and "m"."thread_root_id" is null
      and m.id = any ($1::uuid[])
  )
select
  "t".*,
  exists (
    (
      select
        1 as "one"
      from
        "message_hides" as "h"
      where
        "h"."account_id" = $2
        and "h"."message_id" = "t"."id"
    )
  ) as "hidden_for_me",
  coalesce("f"."state" = 'FOLLOWING', false) as "following",
  (
    select
      count(*)::int as "n"
    from
      "messages" as "r"
    where
      "r"."thread_root_id" = "t"."id"
      and "r"."seq" > coalesce("f"."last_read_seq", 0)
      and "r"."sender_id" <> $3
      and "r"."recalled_at" is null
      and not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = $4
          and "h"."message_id" = "r"."id"
      )
  ) as "unread_count",
  "lr"."id" as "lr_id",
  "lr"."sender_id" as "lr_sender_id",
  "lr"."text" as "lr_text",
  "lr"."recalled_at" as "lr_recalled_at",
  "lr"."created_at" as "lr_created_at"
from
  "t"
  left join "thread_follows" as "f" on "f"."root_id" = "t"."id"
  and "f"."account_id" = $5
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
      "r"."thread_root_id" = "t"."id"
      and not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = $6
          and "h"."message_id" = "r"."id"
      )
    order by
      "r"."seq" desc
    limit
      1
  ) as "lr" on true;

-- threadList
with
  "t" as (
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
      "m"."last_reply_at" as "last_reply_at"
    from
      "messages" as "m"
    where
      "m"."reply_count" > 0
      and "m"."thread_root_id" is null
      and "m"."room_id" = $1
      and (m.last_reply_at, m.id) < ($2::timestamptz, $3::uuid)
    order by
      "m"."last_reply_at" desc,
      "m"."id" desc
    limit
      $4
  )
select
  "t".*,
  exists (
    (
      select
        1 as "one"
      from
        "message_hides" as "h"
      where
        "h"."account_id" = $5
        and "h"."message_id" = "t"."id"
    )
  ) as "hidden_for_me",
  coalesce("f"."state" = 'FOLLOWING', false) as "following",
  (
    select
      count(*)::int as "n"
    from
      "messages" as "r"
    where
      "r"."thread_root_id" = "t"."id"
      and "r"."seq" > coalesce("f"."last_read_seq", 0)
      and "r"."sender_id" <> $6
      and "r"."recalled_at" is null
      and not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = $7
          and "h"."message_id" = "r"."id"
      )
  ) as "unread_count",
  "lr"."id" as "lr_id",
  "lr"."sender_id" as "lr_sender_id",
  "lr"."text" as "lr_text",
  "lr"."recalled_at" as "lr_recalled_at",
  "lr"."created_at" as "lr_created_at"
from
  "t"
  left join "thread_follows" as "f" on "f"."root_id" = "t"."id"
  and "f"."account_id" = $8
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
      "r"."thread_root_id" = "t"."id"
      and not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = $9
          and "h"."message_id" = "r"."id"
      )
    order by
      "r"."seq" desc
    limit
      1
  ) as "lr" on true
order by
  "t"."last_reply_at" desc,
  "t"."id" desc;

-- threadPage
select
  "k"."member",
  "k"."is_root",
  "p".*
from
  (
    select
      exists (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $5
          and "account_id" = $2
      ) as "member",
      (
        select
          "thread_root_id" is null as "top"
        from
          "messages"
        where
          "id" = $1
          and "room_id" = $5
      ) as "is_root"
  ) as "k"
  left join lateral (
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
      exists (
        (
          select
            1 as "one"
          from
            "message_hides" as "h"
          where
            "h"."account_id" = $2
            and "h"."message_id" = "m"."id"
        )
      ) as "hidden_for_me"
    from
      "messages" as "m"
    where
      k.member
      and k.is_root
      and "m"."thread_root_id" = $1
      and "m"."seq" < $4
    order by
      "m"."seq" desc
    limit
      $3
  ) as "p" on true;

-- unreadReplies
select
  (
    select
      count(*)::int as "n"
    from
      "messages" as "r"
    where
      "r"."thread_root_id" = $1
      and "r"."seq" > $2
      and "r"."sender_id" <> $3
      and "r"."recalled_at" is null
      and not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = $4
          and "h"."message_id" = "r"."id"
      )
  ) as "n"
from
  "messages";

-- unreadThreadCount
select
  count(*)::int as "n"
from
  "thread_follows" as "f"
  inner join "room_members" as "rm" on "rm"."room_id" = "f"."room_id"
  and "rm"."account_id" = "f"."account_id"
  inner join "rooms" as "ro" on "ro"."id" = "f"."room_id"
  and "ro"."deleted_at" is null
where
  "f"."account_id" = $1
  and "f"."state" = 'FOLLOWING'
  and exists (
    select
      1 as "one"
    from
      "messages" as "r"
    where
      "r"."thread_root_id" = "f"."root_id"
      and "r"."seq" > "f"."last_read_seq"
      and "r"."sender_id" <> $2
      and "r"."recalled_at" is null
      and not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = $3
          and "h"."message_id" = "r"."id"
      )
  );
