-- The SQL of src/chat/bots/bot-queries.ts, one section per exported function (make snapshots writes this file).

-- botPage
select
  "b"."id",
  "b"."account_id",
  "b"."module_code",
  "b"."customer_account_id",
  "b"."username",
  "b"."description",
  "a"."display_name",
  "a"."avatar_url",
  "b"."allowed_updates",
  "b"."webhook_url",
  "b"."webhook_secret",
  "b"."webhook_max_connections",
  "b"."webhook_last_error_at",
  "b"."webhook_last_error_message",
  "b"."created_at",
  "b"."updated_at",
  coalesce(
    (
      select
        array_agg(
          s.room_id
          order by
            s.room_id
        ) as "ids"
      from
        "bot_room_settings" as "s"
      where
        "s"."bot_id" = "b"."id"
        and "s"."read_all" = $1
        and exists (
          select
            1 as "one"
          from
            "room_members" as "m"
          where
            "m"."room_id" = "s"."room_id"
            and "m"."account_id" = "b"."account_id"
        )
    ),
    '{}'
  ) as "read_all_room_ids",
  (
    select
      count(*)::int as "n"
    from
      "bot_updates" as "u"
    where
      "u"."bot_id" = "b"."id"
  ) as "pending"
from
  "bots" as "b"
  inner join "accounts" as "a" on "a"."id" = "b"."account_id"
where
  "b"."deleted_at" is null
  and "b"."webhook_url" is not null
  and "b"."module_code" = $2
  and "b"."customer_account_id" = $3
  and ("b"."created_at", "b"."id") > ($4::timestamptz, $5::uuid)
order by
  "b"."created_at",
  "b"."id"
limit
  $6;

-- loadBot
select
  "b"."id",
  "b"."account_id",
  "b"."module_code",
  "b"."customer_account_id",
  "b"."username",
  "b"."description",
  "a"."display_name",
  "a"."avatar_url",
  "b"."allowed_updates",
  "b"."webhook_url",
  "b"."webhook_secret",
  "b"."webhook_max_connections",
  "b"."webhook_last_error_at",
  "b"."webhook_last_error_message",
  "b"."created_at",
  "b"."updated_at",
  coalesce(
    (
      select
        array_agg(
          s.room_id
          order by
            s.room_id
        ) as "ids"
      from
        "bot_room_settings" as "s"
      where
        "s"."bot_id" = "b"."id"
        and "s"."read_all" = $1
        and exists (
          select
            1 as "one"
          from
            "room_members" as "m"
          where
            "m"."room_id" = "s"."room_id"
            and "m"."account_id" = "b"."account_id"
        )
    ),
    '{}'
  ) as "read_all_room_ids",
  (
    select
      count(*)::int as "n"
    from
      "bot_updates" as "u"
    where
      "u"."bot_id" = "b"."id"
  ) as "pending"
from
  "bots" as "b"
  inner join "accounts" as "a" on "a"."id" = "b"."account_id"
where
  "b"."deleted_at" is null
  and "b"."id" = $2;

-- lockBotOwner
select
  "module_code",
  "customer_account_id"
from
  "bots"
where
  "id" = $1
  and "deleted_at" is null
for update;
