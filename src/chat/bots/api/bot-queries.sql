-- The SQL of src/chat/bots/api/bot-queries.ts, one section per exported function (make snapshots writes this file).

-- botOfTokenHash
select
  "b"."id",
  "b"."account_id",
  "a"."bot_api_id",
  "b"."username",
  "a"."display_name",
  "b"."module_code",
  "b"."customer_account_id"
from
  "bots" as "b"
  inner join "accounts" as "a" on "a"."id" = "b"."account_id"
where
  "b"."token_hash" = $1
  and "b"."deleted_at" is null
  and "a"."status" = $2;

-- clearCommands
update "bots"
set
  "commands" = '[]'
where
  "id" = $1;

-- commandsOf
select
  "commands" as "commands"
from
  "bots"
where
  "id" = $1;

-- liveBotWebhook
select
  "b"."webhook_url"
from
  "bots" as "b"
  inner join "accounts" as "a" on "a"."id" = "b"."account_id"
where
  "b"."id" = $1
  and "b"."token_hash" = $2
  and "b"."deleted_at" is null
  and "a"."status" = $3;

-- lockBotOfToken
select
  "id"
from
  "bots"
where
  "id" = $1
  and "token_hash" = $2
  and "deleted_at" is null
for update;

-- setAllowedUpdates
update "bots"
set
  "allowed_updates" = $1
where
  "id" = $2;

-- setCommands
update "bots"
set
  "commands" = $1
where
  "id" = $2;

-- webhookInfoOf
select
  "b"."webhook_url",
  "b"."webhook_max_connections",
  "b"."webhook_last_error_at",
  "b"."webhook_last_error_message",
  "b"."allowed_updates",
  "b"."webhook_certificate" is not null as "has_certificate",
  (
    select
      count(*)::int as "n"
    from
      "bot_updates" as "u"
    where
      "u"."bot_id" = "b"."id"
  ) as "pending"
from
  "bots" as "b"
where
  "b"."id" = $1;
