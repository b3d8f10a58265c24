-- The SQL of src/chat/bots/api/message-queries.ts, one section per exported function (make snapshots writes this file).

-- bumpForReply
update "rooms"
set
  "last_seq" = "last_seq" + 1,
  "last_activity_at" = $3
where
  "id" = $1
  and exists (
    select
      1 as "one"
    from
      "room_members"
    where
      "room_members"."room_id" = $1
      and "room_members"."account_id" = $2
  )
  and (
    $4::text is null
    or not exists (
      select
        1 as "one"
      from
        "messages"
      where
        "messages"."room_id" = $1
        and "messages"."sender_id" = $2
        and "messages"."client_message_id" = $4
    )
  )
returning
  "last_seq";

-- copySource
select
  "text",
  "attachments" as "attachments",
  "formatting" as "formatting"
from
  "messages"
where
  "room_id" = $1
  and "seq" = $2
  and "recalled_at" is null;

-- insertReply
with
  "named" as (
    select
      coalesce("thread_root_id", "id") as "root_id"
    from
      "messages"
    where
      "id" = $8
      and "room_id" = $2
  ),
  "root" as (
    update "messages" as "r"
    set
      "reply_count" = "r"."reply_count" + 1,
      "last_reply_at" = $7,
      "last_reply_id" = $1
    from
      "named"
    where
      "r"."id" = "named"."root_id"
      and "r"."recalled_at" is null
    returning
      "r"."id",
      "r"."sender_id"
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
        "client_message_id",
        "created_at",
        "thread_root_id"
      )
    select
      $1 as "id",
      $2 as "room_id",
      $3 as "seq",
      $4 as "sender_id",
      'TEXT' as "type",
      $5 as "text",
      $6 as "client_message_id",
      $7 as "created_at",
      "root"."id" as "thread_root_id"
    from
      "root"
    on conflict ("room_id", "sender_id", "client_message_id")
    where
      "client_message_id" is not null do nothing
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
  "prev" as (
    select
      "f"."state"
    from
      "thread_follows" as "f"
      inner join "root" on "root"."id" = "f"."root_id"
    where
      "f"."account_id" = $4
  ),
  "author_follow" as (
    insert into
      "thread_follows" (
        "root_id",
        "account_id",
        "room_id",
        "state",
        "last_read_seq",
        "updated_at"
      )
    select
      "root"."id",
      "root"."sender_id",
      $2 as "room_id",
      'FOLLOWING' as "state",
      0 as "last_read_seq",
      $7 as "updated_at"
    from
      "root"
      inner join "msg" on true
    where
      "root"."sender_id" <> $4
      and exists (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_members"."room_id" = $2
          and "room_members"."account_id" = "root"."sender_id"
      )
    on conflict ("root_id", "account_id") do update
    set
      "state" = 'FOLLOWING',
      "updated_at" = "excluded"."updated_at"
    where
      "thread_follows"."state" = 'NONE'
    returning
      "root_id",
      "account_id"
  ),
  "replier_follow" as (
    insert into
      "thread_follows" (
        "root_id",
        "account_id",
        "room_id",
        "state",
        "last_read_seq",
        "updated_at"
      )
    select
      "root"."id",
      $4 as "account_id",
      $2 as "room_id",
      'FOLLOWING' as "state",
      $3 as "last_read_seq",
      $7 as "updated_at"
    from
      "root"
      inner join "msg" on true
    on conflict ("root_id", "account_id") do update
    set
      "last_read_seq" = greatest(
        "thread_follows"."last_read_seq",
        "excluded"."last_read_seq"
      ),
      "state" = case
        when "thread_follows"."state" = 'NONE' then 'FOLLOWING'
        else "thread_follows"."state"
      end,
      "updated_at" = "excluded"."updated_at"
    returning
      "root_id",
      "account_id",
      "state"
  ),
  "followed" as (
    select
      "root_id",
      "account_id"
    from
      "author_follow"
    union all
    select
      "root_id",
      "account_id"
    from
      "replier_follow"
    where
      "state" = 'FOLLOWING'
      and coalesce(
        (
          select
            "state"
          from
            "prev"
        ),
        'NONE'
      ) = 'NONE'
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
    union all
    select
      'thread.followed' as "topic",
      jsonb_build_object(
        'rootId',
        f.root_id,
        'roomId',
        msg.room_id,
        'accountId',
        f.account_id,
        'automatic',
        true,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          jsonb_build_array("f"."account_id")
        )
      ) as "payload"
    from
      "followed" as "f"
      inner join "msg" on true
  )
select
  (
    select
      "root_id"
    from
      "named"
  ) as "named_root",
  (
    select
      "id"
    from
      "root"
  ) as "root_id",
  "m".*
from
  (
    select
      1 as "one"
  ) as "o"
  left join "msg" as "m" on true;

-- liveMessageId
select
  "id"
from
  "messages"
where
  "room_id" = $1
  and "seq" = $2
  and "recalled_at" is null;

-- liveMessagesBySeq
select
  "id",
  "sender_id"
from
  "messages"
where
  "room_id" = $1
  and "seq" in ($2, $3)
  and "recalled_at" is null
order by
  "seq";

-- lockMessageToEdit
select
  "id",
  "sender_id",
  "text",
  "inline_keyboard",
  "attachments",
  "formatting",
  "recalled_at"
from
  "messages"
where
  "room_id" = $1
  and "seq" = $2
for update;

-- messageBySeq
select
  "id",
  "recalled_at"
from
  "messages"
where
  "room_id" = $1
  and "seq" = $2;

-- reactionsOf
select
  "emoji"
from
  "message_reactions"
where
  "message_id" = $1
  and "account_id" = $2;

-- replyTarget
select
  "id",
  "sender_id"
from
  "messages"
where
  "room_id" = $1
  and "seq" = $2;

-- sendPlain
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

-- setMessageExtras
update "messages"
set
  "formatting" = $1,
  "attachments" = $2
where
  "id" = $3;

-- setMessageMarkup
update "messages"
set
  "inline_keyboard" = $1
where
  "id" = $2;

-- writeEdit
update "messages"
set
  "text" = $1,
  "edited_at" = $2,
  "inline_keyboard" = $3,
  "formatting" = $4
where
  "id" = $5;
