-- The SQL of src/chat/messages/send-queries.ts, one section per exported function (make snapshots writes this file).

-- messageOfClientId
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
  "formatting"
from
  "messages"
where
  "room_id" = $1
  and "sender_id" = $2
  and "client_message_id" = $3;

-- sendInTransaction
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
      and not exists (
        select
          1 as "one"
        from
          "messages"
        where
          "messages"."room_id" = $2
          and "messages"."sender_id" = $3
          and "messages"."client_message_id" = $6
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
        "client_message_id",
        "created_at"
      )
    select
      $1 as "id",
      $2 as "room_id",
      "bump"."last_seq",
      $3 as "sender_id",
      'TEXT' as "type",
      $4 as "text",
      $6 as "client_message_id",
      $5 as "created_at"
    from
      "bump"
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

-- sendMessage
with
  "cand" as (
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "c"."n",
      "c"."a"
    from
      jsonb_to_recordset($7::jsonb) as c (o int, l int, k text, n text, a uuid)
  ),
  "hit" as (
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "a"."id" as "account_id"
    from
      "cand" as "c"
      cross join lateral (
        select
          "x"."id"
        from
          "accounts" as "x"
        where
          "x"."customer_account_id" = (
            select
              "customer_account_id"
            from
              "accounts"
            where
              "id" = $3::uuid
          )
          and lower(x.username) = "c"."n"
        limit
          1
      ) as "a"
      cross join lateral (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $2::uuid
          and "account_id" = "a"."id"
        limit
          1
      ) as "rm"
    where
      "c"."n" is not null
    union all
    select
      "c"."o",
      "c"."l",
      "c"."k",
      "c"."a" as "account_id"
    from
      "cand" as "c"
      cross join lateral (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $2::uuid
          and "account_id" = "c"."a"
        limit
          1
      ) as "rm"
    where
      "c"."a" is not null
    union all
    select
      "c"."o",
      "c"."l",
      "c"."k",
      null as "account_id"
    from
      "cand" as "c"
    where
      "c"."k" <> 'user'
      and exists (
        select
          1 as "one"
        from
          "room_members"
        where
          "room_id" = $2::uuid
          and "account_id" = $3::uuid
          and "role" in ('OWNER', 'ADMIN')
      )
  ),
  "ents" as (
    select
      jsonb_agg(
        jsonb_strip_nulls(
          jsonb_build_object(
            'type',
            'mention',
            'offset',
            o,
            'length',
            l,
            'accountId',
            account_id,
            'broadcast',
            case
              when k = 'user' then null
              else k
            end
          )
        )
        order by
          o
      ) as "e"
    from
      "hit"
  ),
  "notified" as (
    select
      "account_id"
    from
      "hit"
    where
      "account_id" is not null
      and "account_id" <> $3::uuid
    union
    select
      "m"."account_id"
    from
      "room_members" as "m"
    where
      "m"."room_id" = $2::uuid
      and "m"."account_id" <> $3::uuid
      and exists (
        select
          1 as "one"
        from
          "hit"
        where
          "k" <> 'user'
      )
  ),
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
      and not exists (
        select
          1 as "one"
        from
          "messages"
        where
          "messages"."room_id" = $2
          and "messages"."sender_id" = $3
          and "messages"."client_message_id" = $6
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
        "client_message_id",
        "created_at",
        "entities"
      )
    select
      $1 as "id",
      $2 as "room_id",
      "bump"."last_seq",
      $3 as "sender_id",
      'TEXT' as "type",
      $4 as "text",
      $6 as "client_message_id",
      $5 as "created_at",
      (
        select
          "e"
        from
          "ents"
      ) as "entities"
    from
      "bump"
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
  ),
  "men" as (
    insert into
      "mentions" (
        "account_id",
        "message_id",
        "room_id",
        "seq",
        "created_at"
      )
    select
      "n"."account_id",
      "m"."id",
      "m"."room_id",
      "m"."seq",
      "m"."created_at"
    from
      "notified" as "n"
      cross join "msg" as "m"
    on conflict ("account_id", "message_id") do nothing
    returning
      "account_id"
  ),
  "men_event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'mention.created' as "topic",
      jsonb_build_object(
        'roomId',
        m.room_id,
        'messageId',
        m.id,
        'senderId',
        m.sender_id,
        'seq',
        m.seq,
        'threadRootId',
        m.thread_root_id,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          (
            select
              jsonb_agg(account_id)
            from
              men
          )
        )
      ) as "payload"
    from
      "msg" as "m"
    where
      exists (
        select
          1 as "one"
        from
          "men"
      )
  )
select
  "b"."last_seq" as "bumped",
  "m".*
from
  "bump" as "b"
  left join "msg" as "m" on true;
