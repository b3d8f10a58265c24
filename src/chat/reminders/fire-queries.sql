-- The SQL of src/chat/reminders/fire-queries.ts, one section per exported function (make snapshots writes this file).

-- advanceReminder
with
  "moved" as (
    update "reminders"
    set
      "status" = $1,
      "next_fire_at" = $2,
      "last_fired_at" = $3,
      "fire_count" = "fire_count" + $4,
      "updated_at" = $5
    where
      "id" = $6
    returning
      "id",
      "owner_id",
      "room_id",
      "kind",
      "status",
      "next_fire_at"
  ),
  "event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'reminder.fired' as "topic",
      jsonb_build_object(
        'reminderId',
        id,
        'ownerId',
        owner_id,
        'roomId',
        room_id,
        'kind',
        kind,
        'occurrenceAt',
        $7::timestamptz,
        'messageId',
        $8::uuid,
        'skippedReason',
        $9::text,
        'status',
        status,
        'nextFireAt',
        next_fire_at,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          jsonb_build_array(owner_id)
        )
      ) as "payload"
    from
      "moved"
  )
select
  "id"
from
  "moved";

-- claimDueReminders
select
  "r"."id",
  "r"."owner_id",
  "r"."room_id",
  "r"."bot_id",
  "r"."text",
  "r"."kind",
  "r"."recurrence",
  "r"."next_fire_at",
  "a"."status" as "owner_status"
from
  "reminders" as "r"
  inner join "accounts" as "a" on "a"."id" = "r"."owner_id"
where
  "r"."status" = 'ACTIVE'
  and "r"."next_fire_at" <= $1
order by
  "r"."next_fire_at",
  "r"."id"
limit
  $2
for update of
  "r" skip locked;

-- claimOccurrence
insert into
  "reminder_occurrences" ("reminder_id", "occurrence_at", "fired_at")
values
  ($1, $2, $3)
on conflict do nothing;

-- postAsBot
with
  "bump" as (
    update "rooms"
    set
      "last_seq" = "last_seq" + 1,
      "last_activity_at" = $5
    where
      "id" = $2
      and exists (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_members"."room_id" = $2
          and "room_members"."account_id" = $3
      )
    returning
      "last_seq"
  ),
  "msg" as (
    insert into
      "messages" (
        "id",
        "room_id",
        "seq",
        "sender_id",
        "type",
        "text",
        "created_at"
      )
    select
      $1 as "id",
      $2 as "room_id",
      "bump"."last_seq",
      $3 as "sender_id",
      'TEXT' as "type",
      $4 as "text",
      $5 as "created_at"
    from
      "bump"
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
  "event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'message.created' as "topic",
      jsonb_build_object(
        'roomId',
        room_id,
        'messageId',
        id,
        'senderId',
        sender_id,
        'seq',
        seq,
        'threadRootId',
        thread_root_id,
        'audience',
        jsonb_build_object('kind', 'room', 'roomId', room_id)
      ) as "payload"
    from
      "msg"
  )
select
  "b"."last_seq" as "bumped",
  "m".*
from
  "bump" as "b"
  left join "msg" as "m" on true;

-- recordOutcome
update "reminder_occurrences"
set
  "message_id" = $1,
  "skipped_reason" = $2
where
  "reminder_id" = $3
  and "occurrence_at" = $4;
