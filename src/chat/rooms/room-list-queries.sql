-- The SQL of src/chat/rooms/room-list-queries.ts, one section per exported function (make snapshots writes this file).

-- membersOfRooms
select
  "room_id",
  "account_id",
  "role",
  "joined_at"
from
  "room_members"
where
  "room_id" = any ($1::uuid[])
order by
  "joined_at",
  "account_id";

-- roomListPage
select
  "p".*,
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
        "h"."account_id" = $1
        and "h"."room_id" = "p"."id"
        and "hx"."thread_root_id" is null
        and "hx"."seq" > "p"."last_read_seq"
        and "hx"."sender_id" <> $1
        and "hx"."recalled_at" is null
    )
  ) as "unread_count",
  (
    select
      count(*)::int as "n"
    from
      "mentions" as "mn"
    where
      "mn"."account_id" = $1
      and "mn"."room_id" = "p"."id"
      and "mn"."read_at" is null
      and "mn"."seq" > "p"."last_read_seq"
  ) as "mention_count",
  "lm"."id" as "last_id",
  "lm"."sender_id" as "last_sender_id",
  "lm"."text" as "last_text",
  "lm"."recalled_at" is not null as "last_recalled",
  "lm"."created_at" as "last_created_at",
  array(
    (
      select
        "l"."id"
      from
        "room_labels" as "rl"
        inner join "labels" as "l" on "l"."id" = "rl"."label_id"
      where
        "rl"."account_id" = $1
        and "rl"."room_id" = "p"."id"
      order by
        lower("l"."name"),
        "l"."id"
    )
  ) as "label_ids"
from
  (
    select
      "r"."id",
      "r"."type" as "type",
      "r"."name",
      "r"."description",
      "r"."add_member_policy" as "add_member_policy",
      "r"."channel_id",
      "r"."member_count",
      "r"."created_by",
      "r"."created_at",
      "r"."last_activity_at",
      "m"."role" as "my_role",
      "m"."last_read_seq",
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
    where
      "m"."account_id" = $1
      and "r"."deleted_at" is null
      and "m"."archived" = $2
      and "r"."type" in ('GROUP', 'CHANNEL')
      and "r"."name" ilike $3
      and "r"."channel_id" is null
      and "r"."channel_id" = $4
      and exists (
        select
          1 as "one"
        from
          "room_labels" as "rl"
        where
          "rl"."label_id" = $5
          and "rl"."room_id" = "r"."id"
          and "rl"."account_id" = $1
      )
      and ("m"."pinned", "r"."last_activity_at", "r"."id") < ($6::boolean, $7::timestamptz, $8::uuid)
    order by
      "m"."pinned" desc,
      "r"."last_activity_at" desc,
      "r"."id" desc
    limit
      $9
  ) as "p"
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
      "x"."room_id" = "p"."id"
      and "x"."thread_root_id" is null
      and not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = $1
          and "h"."message_id" = "x"."id"
      )
    order by
      "x"."seq" desc
    limit
      1
  ) as "lm" on true
order by
  "p"."pinned" desc,
  "p"."last_activity_at" desc,
  "p"."id" desc;
