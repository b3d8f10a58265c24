-- The SQL of src/chat/messages/forward-queries.ts, one section per exported function (make snapshots writes this file).

-- bumpForForward
update "rooms"
set
  "last_seq" = "last_seq" + $1,
  "last_activity_at" = $2
where
  "id" = $3
  and exists (
    select
      1 as "one"
    from
      "room_members"
    where
      "room_members"."room_id" = $4
      and "room_members"."account_id" = $5
  )
returning
  "last_seq";

-- copyMessages
with
  "copies" as (
    insert into
      "messages" (
        "id",
        "room_id",
        "seq",
        "sender_id",
        "type",
        "text",
        "created_at",
        "forwarded_from_room_id",
        "forwarded_from_message_id",
        "attachments",
        "formatting"
      )
    select
      "n"."id",
      $1 as "room_id",
      $2 + n.ord - 1 as "seq",
      $3 as "sender_id",
      case
        when s.type = 'POLL' then 'TEXT'
        else s.type
      end as "type",
      "s"."text",
      $4 as "created_at",
      "s"."room_id" as "forwarded_from_room_id",
      "s"."id" as "forwarded_from_message_id",
      "s"."attachments",
      "s"."formatting"
    from
      unnest($5::uuid[], $6::uuid[]) with ordinality as n (id, source_id, ord)
      inner join "messages" as "s" on "s"."id" = "n"."source_id"
      and "s"."room_id" = $7
    returning
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
      "formatting"
  ),
  "events" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'message.created' as "topic",
      jsonb_build_object(
        'audience',
        jsonb_build_object('kind', 'room', 'roomId', room_id),
        'roomId',
        room_id,
        'messageId',
        id,
        'senderId',
        sender_id,
        'seq',
        seq,
        'forwardedFrom',
        jsonb_build_object(
          'roomId',
          forwarded_from_room_id,
          'messageId',
          forwarded_from_message_id
        )
      ) as "payload"
    from
      "copies"
    order by
      "seq"
  )
select
  *
from
  "copies"
order by
  "seq";

-- forwardSources
select
  "id",
  recalled_at is not null as "recalled"
from
  "messages"
where
  "room_id" = $1
  and id = any ($2::uuid[])
for key share;
