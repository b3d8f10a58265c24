-- The SQL of src/workspace/audit/queries.ts, one section per exported function (make snapshots writes this file).

-- auditPage
select
  "id",
  "time",
  "key_id",
  "ip",
  "method",
  "endpoint",
  "status_code"
from
  "svc_audit_log"
where
  "workspace_id" = $1
  and "time" >= $2
  and "time" < $3
  and "key_id" = $4
  and "status_code" = $5
  and (time, id) < ($6::timestamptz, $7::uuid)
order by
  "time" desc,
  "id" desc
limit
  $8;

-- deleteAuditBefore
delete from "svc_audit_log"
where
  "time" < $1;

-- insertAuditEntries
insert into
  "svc_audit_log" (
    "id",
    "workspace_id",
    "key_id",
    "time",
    "ip",
    "method",
    "endpoint",
    "status_code"
  )
select
  "v"."id",
  "v"."workspace_id",
  "v"."key_id",
  "v"."time",
  "v"."ip",
  "v"."method",
  "v"."endpoint",
  "v"."status_code"
from
  unnest(
    $1::uuid[],
    $2::uuid[],
    $3::uuid[],
    $4::timestamptz[],
    $5::text[],
    $6::text[],
    $7::text[],
    $8::int[]
  ) as v (
    "id",
    "workspace_id",
    "key_id",
    "time",
    "ip",
    "method",
    "endpoint",
    "status_code"
  )
on conflict ("id") do nothing;

-- recordSvcKeysUsed
update "svc_keys" as "k"
set
  "last_used_at" = greatest(k.last_used_at, v.at)
from
  unnest($1::uuid[], $2::timestamptz[]) as v (id, at)
where
  "k"."id" = "v"."id";
