-- The SQL of src/chat/receipts/queries.ts, one section per exported function (make snapshots writes this file).

-- receiptSetting
select
  coalesce(
    (
      select
        "share_read_receipts"
      from
        "receipt_settings"
      where
        "account_id" = $1
    ),
    true
  ) as "share";

-- receiptsOf
with
  "t" as (
    select
      exists (
        select
          "account_id"
        from
          "room_members"
        where
          "room_id" = $1
          and "account_id" = $2
      ) as "member",
      (
        select
          "seq"
        from
          "messages"
        where
          "room_id" = $3
          and "id" = $4
      ) as "seq",
      (
        select
          "sender_id"
        from
          "messages"
        where
          "room_id" = $5
          and "id" = $6
      ) as "sender_id",
      coalesce(
        (
          select
            "share_read_receipts"
          from
            "receipt_settings"
          where
            "account_id" = $7
        ),
        true
      ) as "shares"
  )
select
  "t"."member",
  "t"."seq",
  "t"."sender_id",
  "r"."account_id",
  "r"."last_read_at"
from
  "t"
  left join lateral (
    select
      "m"."account_id",
      "m"."last_read_at"
    from
      "room_members" as "m"
      left join "receipt_settings" as "s" on "s"."account_id" = "m"."account_id"
    where
      "m"."room_id" = $8
      and "m"."last_read_seq" >= "t"."seq"
      and "m"."account_id" <> "t"."sender_id"
      and "m"."last_read_at" is not null
      and coalesce("s"."share_read_receipts", true) = $9
      and "t"."shares" = $10
  ) as "r" on true
order by
  "r"."last_read_at" desc,
  "r"."account_id";

-- writeReceiptSetting
insert into
  "receipt_settings" ("account_id", "share_read_receipts", "updated_at")
values
  ($1, $2, $3)
on conflict ("account_id") do update
set
  "share_read_receipts" = "excluded"."share_read_receipts",
  "updated_at" = "excluded"."updated_at"
where
  "receipt_settings"."share_read_receipts" <> "excluded"."share_read_receipts"
returning
  "account_id";
