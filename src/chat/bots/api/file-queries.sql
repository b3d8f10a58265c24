-- The SQL of src/chat/bots/api/file-queries.ts, one section per exported function (make snapshots writes this file).

-- ownCompleteUpload
select
  "id"
from
  "uploads"
where
  (
    "id" = $1
    and "owner_id" = $2
    and "status" = $3
  );

-- visibleUpload
select
  "u"."id",
  "u"."file_name",
  "u"."content_type",
  "u"."size"
from
  "uploads" as "u"
where
  "u"."id" = $1
  and "u"."status" = $2
  and "u"."attached_at" is not null
  and "u"."purged_at" is null
  and exists (
    select
      1 as "one"
    from
      "messages" as "m"
    where
      m.attachments @> $3::jsonb
      and "m"."recalled_at" is null
      and (
        "u"."owner_id" = $4
        or exists (
          select
            1 as "one"
          from
            "room_members" as "rm"
          where
            "rm"."room_id" = "m"."room_id"
            and "rm"."account_id" = $5
        )
      )
  );
