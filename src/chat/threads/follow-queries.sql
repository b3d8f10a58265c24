-- The SQL of src/chat/threads/follow-queries.ts, one section per exported function (make snapshots writes this file).

-- followState
select
  "f"."state" as "state",
  "f"."last_read_seq",
  (
    select
      count(*)::int as "n"
    from
      "messages" as "r"
    where
      "r"."thread_root_id" = "f"."root_id"
      and "r"."seq" > "f"."last_read_seq"
      and "r"."sender_id" <> "f"."account_id"
      and "r"."recalled_at" is null
      and not exists (
        select
          1 as "one"
        from
          "message_hides" as "h"
        where
          "h"."account_id" = "f"."account_id"
          and "h"."message_id" = "r"."id"
      )
  ) as "unread_count"
from
  "thread_follows" as "f"
where
  "f"."root_id" = $1
  and "f"."account_id" = $2;

-- followThread
with
  "up" as (
    update "thread_follows"
    set
      "state" = $1,
      "updated_at" = $2
    where
      "root_id" = $3
      and "account_id" = $4
  )
insert into
  "outbox" ("topic", "payload")
select
  'thread.followed' as "topic",
  jsonb_build_object(
    'rootId',
    $5::uuid,
    'roomId',
    $6::uuid,
    'accountId',
    $7::uuid,
    'automatic',
    false,
    'audience',
    jsonb_build_object(
      'kind',
      'accounts',
      'accountIds',
      jsonb_build_array($8::uuid)
    )
  ) as "payload";

-- followersOf
select
  "f"."account_id"
from
  "thread_follows" as "f"
  inner join "room_members" as "rm" on "rm"."room_id" = "f"."room_id"
  and "rm"."account_id" = "f"."account_id"
where
  "f"."root_id" = $1
  and "f"."state" = $2
order by
  "f"."account_id";

-- lockFollow
insert into
  "thread_follows" (
    "root_id",
    "account_id",
    "room_id",
    "state",
    "last_read_seq",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6)
on conflict ("root_id", "account_id") do update
set
  "state" = "thread_follows"."state"
returning
  "state" as "state",
  "last_read_seq";

-- markThreadRead
with
  "up" as (
    update "thread_follows"
    set
      "last_read_seq" = $1,
      "updated_at" = $2
    where
      "root_id" = $3
      and "account_id" = $4
  )
insert into
  "outbox" ("topic", "payload")
select
  'thread.read' as "topic",
  jsonb_build_object(
    'rootId',
    $5::uuid,
    'roomId',
    $6::uuid,
    'accountId',
    $7::uuid,
    'lastReadSeq',
    $8::bigint,
    'audience',
    jsonb_build_object(
      'kind',
      'accounts',
      'accountIds',
      jsonb_build_array($9::uuid)
    )
  ) as "payload";

-- seqInThread
select
  "seq"
from
  "messages"
where
  "id" = $1
  and (
    "id" = $2
    or "thread_root_id" = $3
  );

-- threadRootOf
select
  "m"."room_id",
  "m"."thread_root_id" is null as "is_root",
  exists (
    select
      "rm"."account_id"
    from
      "room_members" as "rm"
    where
      "rm"."room_id" = "m"."room_id"
      and "rm"."account_id" = $1
  ) as "member"
from
  "messages" as "m"
where
  "m"."id" = $2;

-- unfollowThread
with
  "up" as (
    update "thread_follows"
    set
      "state" = $1,
      "updated_at" = $2
    where
      "root_id" = $3
      and "account_id" = $4
  )
insert into
  "outbox" ("topic", "payload")
select
  'thread.unfollowed' as "topic",
  jsonb_build_object(
    'rootId',
    $5::uuid,
    'roomId',
    $6::uuid,
    'accountId',
    $7::uuid,
    'audience',
    jsonb_build_object(
      'kind',
      'accounts',
      'accountIds',
      jsonb_build_array($8::uuid)
    )
  ) as "payload";
