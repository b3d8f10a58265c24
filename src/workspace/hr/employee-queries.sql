-- The SQL of src/workspace/hr/employee-queries.ts, one section per exported function (make snapshots writes this file).

-- accountEmployed
select
  "id",
  "name",
  "email",
  "job_title",
  "department",
  "account_id",
  "manager_id",
  cast("hire_date" as text) as "hire_date",
  "status",
  cast("terminated_on" as text) as "terminated_on",
  "termination_reason",
  "created_at",
  "updated_at"
from
  "hr_employees"
where
  "workspace_id" = $1
  and "environment" = $2
  and "account_id" = $3
  and "status" = $4;

-- closeOpenAttendance
update "hr_attendance"
set
  "check_out" = greatest($1, check_in + interval '1 millisecond'),
  "updated_at" = $2
where
  "employee_id" = $3
  and "check_out" is null;

-- employeeById
select
  "id",
  "name",
  "email",
  "job_title",
  "department",
  "account_id",
  "manager_id",
  cast("hire_date" as text) as "hire_date",
  "status",
  cast("terminated_on" as text) as "terminated_on",
  "termination_reason",
  "created_at",
  "updated_at"
from
  "hr_employees"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- employeePage
select
  "id",
  "name",
  "email",
  "job_title",
  "department",
  "account_id",
  "manager_id",
  cast("hire_date" as text) as "hire_date",
  "status",
  cast("terminated_on" as text) as "terminated_on",
  "termination_reason",
  "created_at",
  "updated_at"
from
  "hr_employees"
where
  "workspace_id" = $1
  and "environment" = $2
  and "status" = $3
  and "department" = $4
  and "manager_id" = $5
  and "id" < $6
order by
  "id" desc
limit
  $7;

-- insertEmployee
insert into
  "hr_employees" (
    "id",
    "workspace_id",
    "environment",
    "name",
    "email",
    "job_title",
    "department",
    "account_id",
    "manager_id",
    "hire_date",
    "status",
    "created_at",
    "updated_at"
  )
values
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10,
    $11,
    $12,
    $13
  )
returning
  "id",
  "name",
  "email",
  "job_title",
  "department",
  "account_id",
  "manager_id",
  cast("hire_date" as text) as "hire_date",
  "status",
  cast("terminated_on" as text) as "terminated_on",
  "termination_reason",
  "created_at",
  "updated_at";

-- lockEmployeeRow
select
  "id",
  "name",
  "email",
  "job_title",
  "department",
  "account_id",
  "manager_id",
  cast("hire_date" as text) as "hire_date",
  "status",
  cast("terminated_on" as text) as "terminated_on",
  "termination_reason",
  "created_at",
  "updated_at"
from
  "hr_employees"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3
for update;

-- terminateEmployee
update "hr_employees"
set
  "status" = $1,
  "terminated_on" = $2,
  "termination_reason" = $3,
  "updated_at" = $4
where
  "id" = $5
returning
  "id",
  "name",
  "email",
  "job_title",
  "department",
  "account_id",
  "manager_id",
  cast("hire_date" as text) as "hire_date",
  "status",
  cast("terminated_on" as text) as "terminated_on",
  "termination_reason",
  "created_at",
  "updated_at";

-- updateEmployee
update "hr_employees"
set
  "name" = $1,
  "department" = $2,
  "updated_at" = $3
where
  "id" = $4
returning
  "id",
  "name",
  "email",
  "job_title",
  "department",
  "account_id",
  "manager_id",
  cast("hire_date" as text) as "hire_date",
  "status",
  cast("terminated_on" as text) as "terminated_on",
  "termination_reason",
  "created_at",
  "updated_at";
