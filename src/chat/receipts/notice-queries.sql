-- The SQL of src/chat/receipts/notice-queries.ts, one section per exported function (make snapshots writes this file).

-- takeDueNotices
with
  "due" as (
    select
      "room_id",
      "sender_id"
    from
      "read_notices"
    where
      "due_at" <= $1
    order by
      "due_at"
    limit
      $2
    for update
      skip locked
  ),
  "gone" as (
    delete from "read_notices" using "due"
    where
      "read_notices"."room_id" = "due"."room_id"
      and "read_notices"."sender_id" = "due"."sender_id"
    returning
      "read_notices"."room_id",
      "read_notices"."sender_id"
  )
select
  "g"."room_id",
  "g"."sender_id",
  (
    select
      max("m"."last_read_seq") as "seq"
    from
      "room_members" as "m"
      left join "receipt_settings" as "s" on "s"."account_id" = "m"."account_id"
    where
      "m"."room_id" = "g"."room_id"
      and "m"."account_id" <> "g"."sender_id"
      and "m"."last_read_at" is not null
      and coalesce("s"."share_read_receipts", true) = $3
  ) as "last_read_seq"
from
  "gone" as "g";
