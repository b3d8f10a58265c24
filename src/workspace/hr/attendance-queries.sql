-- The SQL of src/workspace/hr/attendance-queries.ts, one section per exported function (make snapshots writes this file).

-- attendanceById
select
  "id",
  "employee_id",
  "check_in",
  "check_out",
  "note",
  "created_at",
  "updated_at"
from
  "hr_attendance"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- attendanceOverlaps
select
  "id"
from
  "hr_attendance"
where
  "employee_id" = $1
  and "id" <> $2
  and "check_in" < $3
  and (
    "check_out" is null
    or "check_out" > $4
  )
limit
  $5;

-- attendancePage
select
  "id",
  "employee_id",
  "check_in",
  "check_out",
  "note",
  "created_at",
  "updated_at"
from
  "hr_attendance"
where
  "workspace_id" = $1
  and "environment" = $2
  and "employee_id" = $3
  and "check_in" >= $4
  and "check_in" < $5
  and "check_out" is not null
  and ("check_in", "id") < ($6::timestamptz, $7::uuid)
order by
  "check_in" desc,
  "id" desc
limit
  $8;

-- insertAttendance
insert into
  "hr_attendance" (
    "id",
    "workspace_id",
    "environment",
    "employee_id",
    "check_in",
    "check_out",
    "note",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
returning
  "id",
  "employee_id",
  "check_in",
  "check_out",
  "note",
  "created_at",
  "updated_at";

-- lockAttendance
select
  "id",
  "employee_id",
  "check_in",
  "check_out",
  "note",
  "created_at",
  "updated_at"
from
  "hr_attendance"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3
for update;

-- lockEmployeeById
select
  "id"
from
  "hr_employees"
where
  "id" = $1
for update;

-- updateAttendance
update "hr_attendance"
set
  "check_out" = $1,
  "note" = $2,
  "updated_at" = $3
where
  "id" = $4
returning
  "id",
  "employee_id",
  "check_in",
  "check_out",
  "note",
  "created_at",
  "updated_at";
