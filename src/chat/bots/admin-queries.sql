-- The SQL of src/chat/bots/admin-queries.ts, one section per exported function (make snapshots writes this file).

-- botApiIdOf
select
  "a"."bot_api_id"
from
  "bots" as "b"
  inner join "accounts" as "a" on "a"."id" = "b"."account_id"
where
  "b"."id" = $1;

-- deactivateAccount
update "accounts"
set
  "status" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- deleteBotRoomSettings
delete from "bot_room_settings"
where
  "bot_id" = $1;

-- insertBot
insert into
  "bots" (
    "id",
    "account_id",
    "module_code",
    "customer_account_id",
    "username",
    "description",
    "token_hash",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- insertBotAccount
insert into
  "accounts" (
    "id",
    "module_code",
    "customer_account_id",
    "display_name",
    "avatar_url",
    "account_type",
    "status",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
returning
  "bot_api_id";

-- lockAccountStatus
select
  "status"
from
  "accounts"
where
  "id" = $1
for update;

-- moduleExists
select
  "code"
from
  "modules"
where
  "code" = $1;

-- setTokenHash
update "bots"
set
  "token_hash" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- softDeleteBot
update "bots"
set
  "deleted_at" = $1,
  "updated_at" = $2,
  "webhook_url" = $3,
  "webhook_secret" = $4
where
  "id" = $5
returning
  "account_id";

-- updateBotAccount
update "accounts"
set
  "display_name" = $1,
  "avatar_url" = $2,
  "updated_at" = $3
where
  "id" = $4;

-- updateBotRow
update "bots"
set
  "username" = $1,
  "description" = $2,
  "updated_at" = $3
where
  "id" = $4;
