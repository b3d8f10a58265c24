-- The SQL of src/chat/accounts/queries.ts, one section per exported function (make snapshots writes this file).

-- accountTypeOf
select
  "account_type"
from
  "accounts"
where
  "id" = $1;

-- insertRegistered
insert into
  "accounts" (
    "id",
    "module_code",
    "customer_account_id",
    "display_name",
    "avatar_url",
    "account_type",
    "status",
    "team",
    "department",
    "role",
    "tags",
    "email",
    "username",
    "created_at",
    "updated_at"
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
    $9,
    $10,
    $11::text[],
    $12,
    $13,
    $14,
    $15
  )
returning
  "id",
  "module_code",
  "customer_account_id",
  "display_name",
  "avatar_url",
  "account_type",
  "status",
  "team",
  "department",
  "role",
  "tags",
  "email",
  "username",
  "created_at",
  "updated_at";

-- lockAccount
select
  "module_code",
  "customer_account_id",
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

-- updateMetadata
update "accounts"
set
  "tags" = $1::text[],
  "updated_at" = $2,
  "email" = $3,
  "username" = $4
where
  "id" = $5
  and "status" <> $6
  and "module_code" = $7
  and "customer_account_id" = $8
returning
  "id",
  "module_code",
  "customer_account_id",
  "display_name",
  "avatar_url",
  "account_type",
  "status",
  "team",
  "department",
  "role",
  "tags",
  "email",
  "username",
  "created_at",
  "updated_at";

-- updateRegistered
update "accounts"
set
  "display_name" = $1,
  "avatar_url" = $2,
  "account_type" = $3,
  "email" = $4,
  "username" = $5,
  "team" = $6,
  "department" = $7,
  "role" = $8,
  "tags" = $9::text[],
  "updated_at" = $10
where
  "id" = $11
returning
  "id",
  "module_code",
  "customer_account_id",
  "display_name",
  "avatar_url",
  "account_type",
  "status",
  "team",
  "department",
  "role",
  "tags",
  "email",
  "username",
  "created_at",
  "updated_at";
