-- The SQL of src/core/crm/queries.ts, one section per exported function (make snapshots writes this file).

-- insertRecord
insert into
  "crm_records" (
    "id",
    "workspace_id",
    "environment",
    "resource",
    "status",
    "data",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
returning
  "id",
  "data",
  "created_at",
  "updated_at";

-- insertRecords
insert into
  "crm_records" (
    "id",
    "workspace_id",
    "environment",
    "resource",
    "status",
    "data",
    "created_at",
    "updated_at"
  )
select
  "t"."id",
  $1 as "workspace_id",
  $2 as "environment",
  $3 as "resource",
  "t"."status",
  "t"."data",
  $4 as "created_at",
  $5 as "updated_at"
from
  unnest($6::uuid[], $7::text[], $8::jsonb[]) as t (id, status, data);

-- mergeRecordData
update "crm_records"
set
  "data" = data || $1::jsonb,
  "status" = coalesce($2, status),
  "updated_at" = $3
where
  "id" = $4
  and "workspace_id" = $5
  and "environment" = $6
  and "resource" = $7
returning
  "id",
  "data",
  "created_at",
  "updated_at";

-- resourcesOf
select
  "id",
  "resource"
from
  "crm_records"
where
  "id" = any ($1::uuid[])
  and "workspace_id" = $2
  and "environment" = $3;

-- selectOne
select
  "id",
  "data",
  "created_at",
  "updated_at"
from
  "crm_records"
where
  "workspace_id" = $1
  and "environment" = $2
  and "resource" = $3
  and "id" = $4
for update;

-- selectPage
select
  "id",
  "data",
  "created_at",
  "updated_at"
from
  "crm_records"
where
  "workspace_id" = $1
  and "environment" = $2
  and "resource" = $3
  and "status" = $4
  and "id" < $5
order by
  "id" desc
limit
  $6;
