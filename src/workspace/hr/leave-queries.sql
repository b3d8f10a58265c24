-- The SQL of src/workspace/hr/leave-queries.ts, one section per exported function (make snapshots writes this file).

-- decideLeave
update "hr_leaves"
set
  "status" = $1,
  "decided_by" = $2,
  "decided_at" = $3,
  "updated_at" = $4
where
  "id" = $5
returning
  "id",
  "employee_id",
  "type",
  cast("start_date" as text) as "start_date",
  cast("end_date" as text) as "end_date",
  (end_date - start_date + 1) as "days",
  "reason",
  "status",
  "decided_by",
  "decided_at",
  "created_at",
  "updated_at";

-- insertLeave
insert into
  "hr_leaves" (
    "id",
    "workspace_id",
    "environment",
    "employee_id",
    "type",
    "start_date",
    "end_date",
    "reason",
    "status",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
returning
  "id",
  "employee_id",
  "type",
  cast("start_date" as text) as "start_date",
  cast("end_date" as text) as "end_date",
  (end_date - start_date + 1) as "days",
  "reason",
  "status",
  "decided_by",
  "decided_at",
  "created_at",
  "updated_at";

-- leaveById
select
  "id",
  "employee_id",
  "type",
  cast("start_date" as text) as "start_date",
  cast("end_date" as text) as "end_date",
  (end_date - start_date + 1) as "days",
  "reason",
  "status",
  "decided_by",
  "decided_at",
  "created_at",
  "updated_at"
from
  "hr_leaves"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- leaveOverlaps
select
  "id"
from
  "hr_leaves"
where
  "employee_id" = $1
  and "status" in ($2, $3)
  and "start_date" <= $4
  and "end_date" >= $5
limit
  $6;

-- leavePage
select
  "id",
  "employee_id",
  "type",
  cast("start_date" as text) as "start_date",
  cast("end_date" as text) as "end_date",
  (end_date - start_date + 1) as "days",
  "reason",
  "status",
  "decided_by",
  "decided_at",
  "created_at",
  "updated_at"
from
  "hr_leaves"
where
  "workspace_id" = $1
  and "environment" = $2
  and "employee_id" = $3
  and "status" = $4
  and "type" = $5
  and "id" < $6
order by
  "id" desc
limit
  $7;

-- lockLeave
select
  "id",
  "employee_id",
  "type",
  cast("start_date" as text) as "start_date",
  cast("end_date" as text) as "end_date",
  (end_date - start_date + 1) as "days",
  "reason",
  "status",
  "decided_by",
  "decided_at",
  "created_at",
  "updated_at"
from
  "hr_leaves"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3
for update;
