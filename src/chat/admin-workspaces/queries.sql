-- The SQL of src/chat/admin-workspaces/queries.ts, one section per exported function (make snapshots writes this file).

-- planOf
select
  "id",
  "svc_plan",
  "svc_rate_per_hour",
  "svc_rate_per_minute"
from
  "workspaces"
where
  "id" = $1;

-- writePlan
update "workspaces"
set
  "svc_plan" = $1,
  "svc_rate_per_hour" = $2,
  "svc_rate_per_minute" = $3,
  "updated_at" = $4
where
  "id" = $5
returning
  "id",
  "svc_plan",
  "svc_rate_per_hour",
  "svc_rate_per_minute";
