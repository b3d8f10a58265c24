-- The SQL of src/workspace/crm/queries.ts, one section per exported function (make snapshots writes this file).

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

-- selectRecords
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
  and data ->> $5 = $6
  and "id" < $7
order by
  "id" desc
limit
  $8;
