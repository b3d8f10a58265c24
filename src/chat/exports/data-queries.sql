-- The SQL of src/chat/exports/data-queries.ts, one section per exported function (make snapshots writes this file).

-- draftsPage
select
  "room_id",
  "text",
  "updated_at"
from
  "drafts"
where
  "account_id" = $1
  and "room_id" > $2
order by
  "room_id"
limit
  $3;

-- labelsOf
select
  "l"."id",
  "l"."name",
  "l"."color",
  "l"."created_at",
  (
    select
      coalesce(
        array_agg(
          rl.room_id
          order by
            rl.room_id
        ),
        '{}'
      ) as "room_ids"
    from
      "room_labels" as "rl"
    where
      "rl"."label_id" = "l"."id"
  ) as "room_ids"
from
  "labels" as "l"
where
  "l"."owner_id" = $1
order by
  "l"."created_at",
  "l"."id";

-- messagesPage
select
  "m"."id",
  "m"."room_id",
  "r"."name" as "room_name",
  "m"."type",
  "m"."created_at",
  "m"."edited_at",
  "m"."recalled_at",
  "m"."thread_root_id",
  "m"."text",
  "m"."formatting",
  "m"."attachments"
from
  "messages" as "m"
  inner join "rooms" as "r" on "r"."id" = "m"."room_id"
where
  "m"."sender_id" = $1
  and ("m"."created_at", "m"."id") > ($2, $3)
order by
  "m"."created_at",
  "m"."id"
limit
  $4;

-- profileOf
select
  "id",
  "display_name",
  "username",
  "email",
  "avatar_url",
  "team",
  "department",
  "role",
  "tags",
  "created_at"
from
  "accounts"
where
  "id" = $1;

-- reactionsPage
select
  "x"."message_id",
  "m"."room_id",
  "x"."emoji",
  "x"."created_at"
from
  "message_reactions" as "x"
  inner join "messages" as "m" on "m"."id" = "x"."message_id"
where
  "x"."account_id" = $1
  and ("x"."message_id", "x"."emoji") > ($2, $3)
order by
  "x"."message_id",
  "x"."emoji"
limit
  $4;

-- savedPage
select
  "id",
  "room_id",
  "message_id",
  "note",
  "saved_at",
  "updated_at"
from
  "saved_messages"
where
  "account_id" = $1
  and "id" > $2
order by
  "id"
limit
  $3;
