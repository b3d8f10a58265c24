-- The SQL of src/chat/bots/webhook-queries.ts, one section per exported function (make snapshots writes this file).

-- dropPendingUpdates
delete from "bot_updates"
where
  "bot_id" = $1;

-- lockHadWebhook
select
  "webhook_url"
from
  "bots"
where
  "id" = $1
for update;

-- writeWebhook
update "bots"
set
  "webhook_url" = $1,
  "webhook_secret" = $2,
  "webhook_max_connections" = $3,
  "webhook_failures" = $4,
  "webhook_retry_at" = $5,
  "webhook_last_error_at" = $6,
  "webhook_last_error_message" = $7,
  "webhook_certificate" = $8,
  "allowed_updates" = $9::text[]
where
  "id" = $10;
