-- The SQL of src/cli/queries.ts, one section per exported function (make snapshots writes this file).

-- accountExists
select
  "id"
from
  "accounts"
where
  "id" = $1;

-- addAccount
insert into
  "accounts" (
    "id",
    "module_code",
    "customer_account_id",
    "display_name",
    "account_type",
    "status"
  )
values
  ($1, $2, $3, $4, $5, $6)
on conflict ("id") do nothing;

-- addCustomerKey
insert into
  "customer_keys" (
    "id",
    "module_code",
    "customer_account_id",
    "kid",
    "algorithm",
    "public_key_pem",
    "fingerprint"
  )
values
  ($1, $2, $3, $4, $5, $6, $7)
on conflict do nothing;

-- addWorkspace
insert into
  "workspaces" ("id", "name", "plan", "owner_id")
values
  ($1, $2, $3, $4);

insert into
  "workspace_members" ("workspace_id", "account_id", "role")
values
  ($1, $2, $3);

-- anyAccountNamed
select
  "id"
from
  "accounts"
where
  "module_code" = $1
  and "customer_account_id" = $2
  and "display_name" = $3
limit
  $4;

-- ensureAccount
insert into
  "accounts" (
    "id",
    "module_code",
    "customer_account_id",
    "display_name",
    "account_type",
    "status"
  )
values
  ($1, $2, $3, $4, $5, $6)
on conflict ("id") do update
set
  "id" = "excluded"."id"
returning
  "module_code",
  "customer_account_id";

-- oldestAccountNamed
select
  "id"
from
  "accounts"
where
  "module_code" = $1
  and "customer_account_id" = $2
  and "display_name" = $3
order by
  "created_at"
limit
  $4;

-- updateWorkspace
update "workspaces"
set
  "svc_plan" = $1
where
  "id" = $2;

-- upgradeToBusiness
update "workspaces"
set
  "plan" = $1
where
  "id" = $2
  and "plan" <> $3;

-- workspaceNamed
select
  "id"
from
  "workspaces"
where
  "name" = $1
  and "owner_id" = $2
order by
  "created_at"
limit
  $3;
