-- The SQL of src/workspace/keys/queries.ts, one section per exported function (make snapshots writes this file).

-- insertSvcKey
insert into
  "svc_keys" (
    "id",
    "workspace_id",
    "name",
    "description",
    "prefix",
    "last_four",
    "key_hash",
    "environment",
    "scopes",
    "ip_allow_list",
    "expires_at",
    "created_by",
    "created_at"
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
    $9::text[],
    $10::text[],
    $11,
    $12,
    $13
  )
returning
  "id",
  "workspace_id",
  "name",
  "description",
  "prefix",
  "last_four",
  "environment",
  "scopes",
  "ip_allow_list",
  "expires_at",
  "created_by",
  "created_at",
  "last_used_at",
  "revoked_at";

-- revokeUnrevokedKey
update "svc_keys"
set
  "revoked_at" = $1,
  "revoked_by" = $2
where
  "id" = $3
  and "workspace_id" = $4
  and "revoked_at" is null
returning
  "id",
  "workspace_id",
  "name",
  "description",
  "prefix",
  "last_four",
  "environment",
  "scopes",
  "ip_allow_list",
  "expires_at",
  "created_by",
  "created_at",
  "last_used_at",
  "revoked_at";

-- svcKeyById
select
  "id",
  "workspace_id",
  "name",
  "description",
  "prefix",
  "last_four",
  "environment",
  "scopes",
  "ip_allow_list",
  "expires_at",
  "created_by",
  "created_at",
  "last_used_at",
  "revoked_at"
from
  "svc_keys"
where
  "id" = $1
  and "workspace_id" = $2;

-- svcKeyPage
select
  "id",
  "workspace_id",
  "name",
  "description",
  "prefix",
  "last_four",
  "environment",
  "scopes",
  "ip_allow_list",
  "expires_at",
  "created_by",
  "created_at",
  "last_used_at",
  "revoked_at"
from
  "svc_keys"
where
  "workspace_id" = $1
  and (
    "revoked_at" is null
    and (
      "expires_at" is null
      or "expires_at" > $2
    )
  )
  and "id" < $3
order by
  "id" desc
limit
  $4;
