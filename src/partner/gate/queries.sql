-- The SQL of src/partner/gate/queries.ts, one section per exported function (make snapshots writes this file).

-- keyByHash
select
  "k"."id",
  "k"."workspace_id",
  "k"."environment",
  "k"."prefix",
  "k"."scopes",
  "k"."status",
  "k"."expires_at",
  "w"."plan"
from
  "api_keys" as "k"
  inner join "workspaces" as "w" on "w"."id" = "k"."workspace_id"
where
  "k"."key_hash" = $1;

-- recordKeysUsed
update "api_keys" as "k"
set
  "last_used_at" = greatest(k.last_used_at, v.at)
from
  unnest($1::uuid[], $2::timestamptz[]) as v (id, at)
where
  "k"."id" = "v"."id";
