-- The SQL of src/chat/expiry/queries.ts, one section per exported function (make snapshots writes this file).

-- clearBanners
update "rooms"
set
  "snap_message_id" = $1,
  "snapped_by" = $2,
  "snapped_at" = $3
where
  "id" in ($4)
  and "snap_message_id" in ($5);

-- deleteMessages
delete from "messages"
where
  "id" in ($1)
returning
  "id",
  "room_id",
  "thread_root_id",
  "attachments";

-- purgeUncarried
with
  "gone" as (
    update "uploads" as "u"
    set
      "purged_at" = $1
    where
      "u"."id" in ($2)
      and "u"."attached_at" is not null
      and "u"."purged_at" is null
      and not exists (
        select
          1 as "one"
        from
          "messages" as "m"
        where
          m.attachments @> jsonb_build_array(jsonb_build_object('id', u.id))
          and "m"."recalled_at" is null
      )
    returning
      "u"."id",
      "u"."owner_id"
  ),
  "events" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'upload.purged' as "topic",
      jsonb_build_object(
        'uploadId',
        id,
        'ownerId',
        owner_id,
        'audience',
        jsonb_build_object(
          'kind',
          'accounts',
          'accountIds',
          jsonb_build_array(owner_id)
        )
      ) as "payload"
    from
      "gone"
  )
select
  "id"
from
  "gone";

-- recountThreads
update "messages" as "r"
set
  "reply_count" = (
    select
      count(*)::int as "n"
    from
      "messages" as "x"
    where
      "x"."thread_root_id" = "r"."id"
  ),
  "last_reply_at" = (
    select
      "x"."created_at"
    from
      "messages" as "x"
    where
      "x"."thread_root_id" = "r"."id"
    order by
      "x"."seq" desc
    limit
      $1
  ),
  "last_reply_id" = (
    select
      "x"."id"
    from
      "messages" as "x"
    where
      "x"."thread_root_id" = "r"."id"
    order by
      "x"."seq" desc
    limit
      $2
  )
where
  "r"."id" in ($3);

-- roomsOf
select distinct
  "room_id"
from
  "messages"
where
  "id" in ($1);
