-- The SQL of src/chat/media/cleanup-queries.ts, one section per exported function (make snapshots writes this file).

-- expireUploads
with
  "gone" as (
    delete from "uploads"
    where
      "id" in (
        select
          "id"
        from
          "uploads"
        where
          "attached_at" is null
          and "expires_at" <= $1
        order by
          "expires_at"
        limit
          $2
        for update
          skip locked
      )
    returning
      "id",
      "owner_id",
      "status"
  ),
  "events" as (
    insert into
      "outbox" ("topic", "payload")
    select
      'upload.expired' as "topic",
      jsonb_build_object(
        'uploadId',
        id,
        'ownerId',
        owner_id,
        'status',
        status,
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

-- purgeUploads
with
  "gone" as (
    update "uploads"
    set
      "purged_at" = $1
    where
      "id" in (
        select
          "u"."id"
        from
          "uploads" as "u"
          inner join "messages" as "first" on "first"."id" = "u"."message_id"
        where
          "u"."attached_at" is not null
          and "u"."purged_at" is null
          and "first"."recalled_at" is not null
          and not exists (
            select
              1 as "one"
            from
              "messages" as "m"
            where
              m.attachments @> jsonb_build_array(jsonb_build_object('id', u.id))
              and "m"."recalled_at" is null
          )
        limit
          $2
        for update of
          "u" skip locked
      )
    returning
      "id",
      "owner_id"
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
