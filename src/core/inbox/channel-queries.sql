-- The SQL of src/core/inbox/channel-queries.ts, one section per exported function (make snapshots writes this file).

-- channelById
select
  "id",
  "kind",
  "name",
  "status",
  "created_at",
  "updated_at"
from
  "inbox_channels"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- channelsPage
select
  "id",
  "kind",
  "name",
  "status",
  "created_at",
  "updated_at"
from
  "inbox_channels"
where
  "workspace_id" = $1
  and "environment" = $2
  and "kind" = $3
  and "status" = $4
  and "id" < $5
order by
  "id" desc
limit
  $6;

-- deleteChannel
delete from "inbox_channels"
where
  "id" = $1
  and "workspace_id" = $2
  and "environment" = $3;

-- insertChannel
insert into
  "inbox_channels" (
    "id",
    "workspace_id",
    "environment",
    "kind",
    "name",
    "status",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8)
returning
  "id",
  "kind",
  "name",
  "status",
  "created_at",
  "updated_at";

-- updateChannel
update "inbox_channels"
set
  "name" = coalesce($1::text, name),
  "status" = coalesce($2::text, status),
  "updated_at" = case
    when coalesce($3::text, name) is distinct from name
    or coalesce($4::text, status) is distinct from status then $5::timestamptz
    else updated_at
  end
where
  "id" = $6
  and "workspace_id" = $7
  and "environment" = $8
returning
  "id",
  "kind",
  "name",
  "status",
  "created_at",
  "updated_at";
