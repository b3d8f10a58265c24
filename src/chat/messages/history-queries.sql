-- The SQL of src/chat/messages/history-queries.ts, one section per exported function (make snapshots writes this file).

-- historyPage
select
  "k"."member",
  "p".*
from
  (
    select
      "c"."member",
      "c"."counted",
      case
        when c.counted then (
          select
            array_agg(
              "rm"."account_id"
              order by
                rm.account_id
            ) as "a"
          from
            "room_members" as "rm"
            left join "receipt_settings" as "rs" on "rs"."account_id" = "rm"."account_id"
          where
            "rm"."room_id" = $1
            and "rm"."last_read_at" is not null
            and coalesce("rs"."share_read_receipts", true) = true
        )
      end as "reader_ids",
      case
        when c.counted then (
          select
            array_agg(
              "rm"."last_read_seq"
              order by
                rm.account_id
            ) as "a"
          from
            "room_members" as "rm"
            left join "receipt_settings" as "rs" on "rs"."account_id" = "rm"."account_id"
          where
            "rm"."room_id" = $1
            and "rm"."last_read_at" is not null
            and coalesce("rs"."share_read_receipts", true) = true
        )
      end as "reader_seqs"
    from
      (
        select
          exists (
            select
              1 as "one"
            from
              "room_members"
            where
              "room_id" = $1
              and "account_id" = $3
          ) as "member",
          (
            (
              select
                "member_count"
              from
                "rooms"
              where
                "id" = $1
            ) <= 100
            and coalesce(
              (
                select
                  "share_read_receipts"
                from
                  "receipt_settings"
                where
                  "account_id" = $3
              ),
              true
            ) = true
          ) as "counted"
      ) as "c"
  ) as "k"
  left join lateral (
    select
      "q".*,
      case
        when k.counted then (
          select
            count(*)::int
          from
            unnest(k.reader_ids, k.reader_seqs) as r (id, seq)
          where
            r.seq >= q.seq
            and r.id <> q.sender_id
        )
      end as "read_count"
    from
      (
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
                "h"."account_id" = $3
                and "h"."message_id" = "messages"."id"
            )
          ) as "hidden_for_me"
        from
          "messages"
        where
          k.member
          and "room_id" = $1
          and "thread_root_id" is null
          and "seq" < $4
        order by
          "seq" desc
        limit
          101
      ) as "q"
    order by
      "q"."seq" desc
    limit
      $2
  ) as "p" on true;
