-- The SQL of src/workspace/gate/queries.ts, one section per exported function (make snapshots writes this file).

-- keyByHash
select
  "k"."id",
  "k"."workspace_id",
  "k"."environment",
  "k"."scopes",
  "k"."ip_allow_list",
  "k"."expires_at",
  "k"."revoked_at",
  "w"."svc_plan",
  "w"."svc_rate_per_hour",
  "w"."svc_rate_per_minute"
from
  "svc_keys" as "k"
  inner join "workspaces" as "w" on "w"."id" = "k"."workspace_id"
where
  "k"."key_hash" = $1;
