-- The SQL of src/chat/search/queries.ts, one section per exported function (make snapshots writes this file).

-- searchMessages
select
  "r".*
from
  (
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
      ts_rank(
        to_tsvector('simple'::regconfig, x.text),
        t.query,
        1
      )::float8 as "rank"
    from
      plainto_tsquery('simple'::regconfig, $2) as t (query)
      inner join "messages" as "x" on to_tsvector('simple'::regconfig, x.text) @@ t.query
      and "x"."text" is not null
      and "x"."recalled_at" is null
      inner join "room_members" as "m" on "m"."room_id" = "x"."room_id"
      and "m"."account_id" = $3
    where
      not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = $4
          and "h"."message_id" = "x"."id"
      )
      and "x"."room_id" = $5
      and "x"."sender_id" = $6
      and "x"."created_at" >= $7::timestamptz
      and "x"."created_at" < $8::timestamptz
  ) as "r"
where
  (r.rank, r.created_at, r.id) < ($9::float8, $10::timestamptz, $11::uuid)
order by
  "r"."rank" desc,
  "r"."created_at" desc,
  "r"."id" desc
limit
  $12;
