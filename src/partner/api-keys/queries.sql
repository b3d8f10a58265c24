-- The SQL of src/partner/api-keys/queries.ts, one section per exported function (make snapshots writes this file).

-- apiKeyById
select
  "id",
  "workspace_id",
  "name",
  "prefix",
  "environment",
  "scopes",
  "status",
  "created_at",
  "created_by",
  "last_used_at",
  "expires_at",
  "revoked_at"
from
  "api_keys"
where
  "id" = $1
  and "workspace_id" = $2;

-- apiKeyPage
select
  "id",
  "workspace_id",
  "name",
  "prefix",
  "environment",
  "scopes",
  "status",
  "created_at",
  "created_by",
  "last_used_at",
  "expires_at",
  "revoked_at"
from
  "api_keys"
where
  "workspace_id" = $1
  and "id" < $2
order by
  "id" desc
limit
  $3;

-- insertApiKey
insert into
  "api_keys" (
    "id",
    "workspace_id",
    "name",
    "prefix",
    "key_hash",
    "environment",
    "scopes",
    "status",
    "created_by",
    "created_at",
    "expires_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
returning
  "id",
  "workspace_id",
  "name",
  "prefix",
  "environment",
  "scopes",
  "status",
  "created_at",
  "created_by",
  "last_used_at",
  "expires_at",
  "revoked_at";

-- revokeActiveKey
update "api_keys"
set
  "status" = $1,
  "revoked_at" = $2,
  "revoked_by" = $3
where
  "id" = $4
  and "workspace_id" = $5
  and "status" = $6
returning
  "id",
  "workspace_id",
  "name",
  "prefix",
  "environment",
  "scopes",
  "status",
  "created_at",
  "created_by",
  "last_used_at",
  "expires_at",
  "revoked_at";
