-- The SQL of src/chat/rooms/personal-queries.ts, one section per exported function (make snapshots writes this file).

-- lockPreferences
select
  "m"."archived",
  "m"."pinned",
  "m"."notification_level" as "notification_level",
  case
    when "m"."muted_until" = 'infinity' then null
    else "m"."muted_until"
  end as "muted_until",
  coalesce("m"."muted_until" = 'infinity', false) as "muted_forever"
from
  "room_members" as "m"
  inner join "rooms" as "r" on "r"."id" = "m"."room_id"
  and "r"."deleted_at" is null
where
  "m"."room_id" = $1
  and "m"."account_id" = $2
for update of
  "m";

-- memberWithPreferences
select
  "m"."account_id",
  "m"."role" as "role",
  "m"."joined_at",
  "a"."display_name",
  "a"."avatar_url",
  "a"."account_type" as "account_type",
  "m"."archived",
  "m"."pinned",
  "m"."notification_level" as "notification_level",
  case
    when "m"."muted_until" = 'infinity' then null
    else "m"."muted_until"
  end as "muted_until",
  coalesce("m"."muted_until" = 'infinity', false) as "muted_forever"
from
  "room_members" as "m"
  inner join "accounts" as "a" on "a"."id" = "m"."account_id"
where
  "m"."room_id" = $1
  and "m"."account_id" = $2;

-- moveReadMark
with
  "target" as (
    select
      (
        select
          "x"."seq"
        from
          "messages" as "x"
        where
          "x"."room_id" = "r"."id"
          and "x"."id" = $1
      ) as "seq",
      "m"."last_read_seq" as "previous"
    from
      "rooms" as "r"
      inner join "room_members" as "m" on "m"."room_id" = "r"."id"
      and "m"."account_id" = $2
    where
      "r"."id" = $3
      and "r"."deleted_at" is null
  ),
  "moved" as (
    update "room_members" as "m"
    set
      "last_read_seq" = "t"."seq",
      "last_read_at" = $4
    from
      "target" as "t"
    where
      "m"."room_id" = $5
      and "m"."account_id" = $6
      and "t"."seq" is not null
      and "m"."last_read_seq" < "t"."seq"
    returning
      "m"."last_read_seq"
  ),
  "notices" as (
    insert into
      "read_notices" ("room_id", "sender_id", "due_at")
    select distinct
      $7::uuid as "room_id",
      "p"."sender_id",
      $8::timestamptz as "due_at"
    from
      (
        select
          "x"."sender_id"
        from
          "messages" as "x",
          "target" as "t",
          "moved" as "mv"
        where
          "x"."room_id" = $9
          and "x"."seq" > "t"."previous"
          and "x"."seq" <= "mv"."last_read_seq"
          and "x"."sender_id" <> $10
        order by
          "x"."seq" desc
        limit
          200
      ) as "p"
    where
      not exists (
        select
          "s"."account_id"
        from
          "receipt_settings" as "s"
        where
          (
            "s"."account_id" = $11
            or "s"."account_id" = "p"."sender_id"
          )
          and "s"."share_read_receipts" = $12
      )
    on conflict do nothing
  ),
  "event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'room.read' as "topic",
      jsonb_build_object(
        'roomId',
        $13::uuid,
        'accountId',
        $14::uuid,
        'lastReadSeq',
        "moved"."last_read_seq",
        'audience',
        $15::jsonb
      ) as "payload"
    from
      "moved"
  )
select
  "t"."seq" as "target",
  (
    select
      "last_read_seq"
    from
      "moved"
  ) as "moved"
from
  "target" as "t";

-- readState
select
  "p"."last_read_seq",
  (
    (
      select
        count(*)::int as "n"
      from
        "messages" as "x"
      where
        "x"."room_id" = "p"."id"
        and "x"."thread_root_id" is null
        and "x"."seq" > "p"."last_read_seq"
        and "x"."sender_id" <> $1
        and "x"."recalled_at" is null
    ) - (
      select
        count(*)::int as "n"
      from
        "message_hides" as "h"
        inner join "messages" as "hx" on "hx"."id" = "h"."message_id"
      where
        "h"."account_id" = $2
        and "h"."room_id" = "p"."id"
        and "hx"."thread_root_id" is null
        and "hx"."seq" > "p"."last_read_seq"
        and "hx"."sender_id" <> $3
        and "hx"."recalled_at" is null
    )
  ) as "unread_count",
  (
    select
      count(*)::int as "n"
    from
      "mentions" as "mn"
    where
      "mn"."account_id" = $4
      and "mn"."room_id" = "p"."id"
      and "mn"."read_at" is null
      and "mn"."seq" > "p"."last_read_seq"
  ) as "mention_count"
from
  (
    select
      "m"."room_id" as "id",
      "m"."last_read_seq"
    from
      "room_members" as "m"
    where
      "m"."room_id" = $5
      and "m"."account_id" = $6
  ) as "p";

-- writePreferences
update "room_members"
set
  "archived" = $1,
  "pinned" = $2,
  "notification_level" = $3,
  "muted_until" = $4::timestamptz,
  "pinned_at" = case
    when "pinned" then "pinned_at"
    else $5::timestamptz
  end
where
  "room_id" = $6
  and "account_id" = $7;
