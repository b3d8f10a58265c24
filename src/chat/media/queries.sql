-- The SQL of src/chat/media/queries.ts, one section per exported function (make snapshots writes this file).

-- claimUploadRows
update "uploads"
set
  "attached_at" = $1,
  "message_id" = $2
where
  "id" = any ($3::uuid[])
  and "owner_id" = $4
  and "status" = $5
  and "attached_at" is null
  and "expires_at" > $6
returning
  "id",
  "file_name",
  "content_type",
  "size",
  "width",
  "height";

-- completeUpload
update "uploads"
set
  "status" = $1,
  "size" = $2,
  "completed_at" = $3,
  "width" = $4,
  "height" = $5
where
  "id" = $6
  and "status" = $7
returning
  "owner_id";

-- deleteUnsentUpload
delete from "uploads"
where
  "id" = $1
  and "attached_at" is null;

-- insertUpload
insert into
  "uploads" (
    "id",
    "owner_id",
    "file_name",
    "content_type",
    "declared_size",
    "status",
    "token_hash",
    "expires_at",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- readableFile
select
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
      inner join "room_members" as "rm" on "rm"."room_id" = "m"."room_id"
      and "rm"."account_id" = $3
    where
      m.attachments @> $4::jsonb
      and "m"."recalled_at" is null
  );

-- reopenUpload
update "uploads"
set
  "status" = $1
where
  "id" = $2
  and "status" = $3
returning
  "owner_id";

-- startUpload
update "uploads"
set
  "status" = $1
where
  "id" = $2
  and "status" = $3;

-- uploadById
select
  "id",
  "owner_id",
  "file_name",
  "content_type",
  "declared_size",
  "size",
  "status",
  "token_hash",
  "expires_at",
  "attached_at"
from
  "uploads"
where
  "id" = $1;

-- uploadByTokenHash
select
  "id",
  "owner_id",
  "file_name",
  "content_type",
  "declared_size",
  "size",
  "status",
  "token_hash",
  "expires_at",
  "attached_at"
from
  "uploads"
where
  "token_hash" = $1;

-- uploadStates
select
  "id",
  "owner_id",
  "status",
  "attached_at",
  "expires_at"
from
  "uploads"
where
  "id" = any ($1::uuid[]);
