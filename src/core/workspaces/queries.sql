-- The SQL of src/core/workspaces/queries.ts, one section per exported function (make snapshots writes this file).

-- workspaceWithRole
select
  "w"."id",
  "w"."name",
  "w"."plan",
  "w"."owner_id",
  "w"."created_at",
  "m"."role" as "my_role"
from
  "workspaces" as "w"
  left join "workspace_members" as "m" on "m"."workspace_id" = "w"."id"
  and "m"."account_id" = $1
where
  "w"."id" = $2;
