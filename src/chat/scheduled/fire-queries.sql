-- The SQL of src/chat/scheduled/fire-queries.ts, one section per exported function (make snapshots writes this file).

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

-- claimDueScheduled
select
  "s"."id",
  "s"."room_id",
  "s"."sender_id",
  "s"."text",
  "s"."thread_root_id",
  "a"."status" as "sender_status",
  "r"."deleted_at" is not null as "room_deleted"
from
  "scheduled_messages" as "s"
  inner join "accounts" as "a" on "a"."id" = "s"."sender_id"
  inner join "rooms" as "r" on "r"."id" = "s"."room_id"
where
  "s"."status" = 'PENDING'
  and "s"."send_at" <= $1
order by
  "s"."send_at",
  "s"."id"
limit
  $2
for update of
  "s" skip locked;

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

-- lockRooms
select
  "id"
from
  "rooms"
where
  "id" = any ($1::uuid[])
order by
  "id"
for no key update;

-- sendTopBatch
with
  "d" as (
    select
      *
    from
      unnest(
        $1::uuid[],
        $2::uuid[],
        $3::uuid[],
        $4::uuid[],
        $5::text[]
      ) with ordinality as d (sid, mid, room_id, sender_id, text, ord)
  ),
  "ok" as (
    select
      "d".*,
      row_number() over (
        partition by
          d.room_id
        order by
          d.ord
      ) as "rn"
    from
      "d"
    where
      exists (
        select
          1 as "one"
        from
          "room_members" as "m"
        where
          "m"."room_id" = "d"."room_id"
          and "m"."account_id" = "d"."sender_id"
      )
  ),
  "counts" as (
    select
      "room_id",
      count(*) as "n"
    from
      "ok"
    group by
      "room_id"
  ),
  "bump" as (
    update "rooms" as "r"
    set
      "last_seq" = r.last_seq + c.n,
      "last_activity_at" = $6
    from
      "counts" as "c"
    where
      "r"."id" = "c"."room_id"
    returning
      "r"."id",
      "r"."last_seq",
      "c"."n"
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
      "ok"."mid",
      "ok"."room_id",
      b.last_seq - b.n + ok.rn as "seq",
      "ok"."sender_id",
      'TEXT' as "type",
      "ok"."text",
      $7::timestamptz as "created_at"
    from
      "ok"
      inner join "bump" as "b" on "b"."id" = "ok"."room_id"
    returning
      "id",
      "room_id",
      "seq",
      "sender_id",
      "thread_root_id"
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
    order by
      "room_id",
      "seq"
  )
select
  "ok"."sid"
from
  "ok"
  inner join "msg" on "msg"."id" = "ok"."mid";

-- settle
with
  "done" as (
    update "scheduled_messages" as "s"
    set
      "status" = "x"."status",
      "message_id" = "x"."message_id",
      "failure_reason" = "x"."reason",
      "fired_at" = $1,
      "updated_at" = $2
    from
      unnest($3::uuid[], $4::text[], $5::uuid[], $6::text[]) as x (id, status, message_id, reason)
    where
      "s"."id" = "x"."id"
    returning
      "s"."id",
      "s"."room_id",
      "s"."sender_id",
      "s"."send_at",
      "s"."status",
      "s"."message_id",
      "s"."failure_reason",
      "s"."fired_at"
  ),
  "event" as (
    insert into
      "outbox" ("topic", "payload")
    select
      case
        when status = 'SENT' then 'scheduled_message.sent'
        else 'scheduled_message.failed'
      end as "topic",
      jsonb_build_object(
        'scheduledMessageId',
        id,
        'roomId',
        room_id,
        'senderId',
        sender_id,
        'sendAt',
        send_at,
        'status',
        status,
        'messageId',
        message_id,
        'failureReason',
        failure_reason,
        'firedAt',
        fired_at,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          jsonb_build_array(sender_id)
        )
      ) as "payload"
    from
      "done"
  )
select
  "id"
from
  "done";
