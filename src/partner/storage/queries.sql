-- The SQL of src/partner/storage/queries.ts, one section per exported function (make snapshots writes this file).

-- deleteFile
delete from "storage_files"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- fileById
select
  "id",
  "file_name",
  "content_type",
  "size",
  "sha256",
  "created_at"
from
  "storage_files"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- filePage
select
  "id",
  "file_name",
  "content_type",
  "size",
  "sha256",
  "created_at"
from
  "storage_files"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" < $3
order by
  "id" desc
limit
  $4;

-- insertFile
insert into
  "storage_files" (
    "id",
    "workspace_id",
    "environment",
    "file_name",
    "content_type",
    "size",
    "sha256",
    "uploaded_by",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
returning
  "id",
  "file_name",
  "content_type",
  "size",
  "sha256",
  "created_at";
