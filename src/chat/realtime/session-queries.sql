-- The SQL of src/chat/realtime/session-queries.ts, one section per exported function (make snapshots writes this file).

-- accountStatus
select
  "status"
from
  "accounts"
where
  "id" = $1;
