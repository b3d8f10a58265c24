-- The SQL of src/partner/idempotency/queries.ts, one section per exported function (make snapshots writes this file).

-- claimKey
insert into
  "idempotency_keys" (
    "workspace_id",
    "idempotency_key",
    "request_hash",
    "response_status",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5)
on conflict do nothing;

-- deleteExpiredRecords
delete from "idempotency_keys"
where
  "created_at" < now() - interval '24 hours';

-- deleteRecord
delete from "idempotency_keys"
where
  "workspace_id" = $1
  and "idempotency_key" = $2
  and "created_at" = $3;

-- readRecord
select
  "request_hash",
  "response_status",
  "response_body",
  "created_at"
from
  "idempotency_keys"
where
  "workspace_id" = $1
  and "idempotency_key" = $2;

-- storeResponse
update "idempotency_keys"
set
  "response_status" = $1,
  "response_body" = $2
where
  "workspace_id" = $3
  and "idempotency_key" = $4;
