-- The SQL of src/partner/workspaces/queries.ts, one section per exported function (make snapshots writes this file).

-- activeAccountExists
select
  "id"
from
  "accounts"
where
  "id" = $1
  and "module_code" = $2
  and "customer_account_id" = $3
  and "status" = $4;

-- customRoleExists
select
  "name"
from
  "workspace_roles"
where
  "workspace_id" = $1
  and "name" = $2;

-- customRoleNames
select
  "name"
from
  "workspace_roles"
where
  "workspace_id" = $1
order by
  "created_at",
  "name";

-- deleteMember
delete from "workspace_members"
where
  "workspace_id" = $1
  and "account_id" = $2;

-- insertMember
insert into
  "workspace_members" ("workspace_id", "account_id", "role", "added_at")
values
  ($1, $2, $3, $4);

-- insertRole
insert into
  "workspace_roles" ("workspace_id", "name", "created_at")
values
  ($1, $2, $3)
on conflict do nothing;

-- insertWorkspace
insert into
  "workspaces" (
    "id",
    "name",
    "plan",
    "owner_id",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6);

-- memberPage
select
  "m"."account_id",
  "a"."display_name",
  "m"."role",
  "m"."added_at"
from
  "workspace_members" as "m"
  inner join "accounts" as "a" on "a"."id" = "m"."account_id"
where
  "m"."workspace_id" = $1
  and (m.added_at, m.account_id) > ($2::timestamptz, $3::uuid)
order by
  "m"."added_at",
  "m"."account_id"
limit
  $4;

-- roleCellRows
select
  "role",
  "cell",
  "granted"
from
  "role_cells"
where
  "workspace_id" = $1
  and "role" = $2;

-- setWorkspacePlan
update "workspaces"
set
  "plan" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- upsertMember
with
  "put" as (
    insert into
      "workspace_members" ("workspace_id", "account_id", "role", "added_at")
    values
      ($1, $2, $3, $4)
    on conflict ("workspace_id", "account_id") do update
    set
      "role" = "excluded"."role"
    returning
      "account_id",
      "role",
      "added_at"
  )
select
  "put"."account_id",
  "a"."display_name",
  "put"."role",
  "put"."added_at"
from
  "put"
  inner join "accounts" as "a" on "a"."id" = "put"."account_id";

-- upsertRoleCells
insert into
  "role_cells" (
    "workspace_id",
    "role",
    "cell",
    "granted",
    "updated_at"
  )
select
  $1 as "workspace_id",
  $2 as "role",
  "c"."cell",
  "c"."granted",
  $3 as "updated_at"
from
  unnest(
    array[
      'api_keys.view',
      'api_keys.create',
      'api_keys.delete'
    ],
    $4::boolean[]
  ) as c (cell, granted)
on conflict ("workspace_id", "role", "cell") do update
set
  "granted" = "excluded"."granted",
  "updated_at" = "excluded"."updated_at";

-- workspacePage
select
  "w"."id",
  "w"."name",
  "w"."plan",
  "w"."owner_id",
  "w"."created_at",
  "m"."role" as "my_role"
from
  "workspace_members" as "m"
  inner join "workspaces" as "w" on "w"."id" = "m"."workspace_id"
where
  "m"."account_id" = $1
  and (w.created_at, w.id) < ($2::timestamptz, $3::uuid)
order by
  "w"."created_at" desc,
  "w"."id" desc
limit
  $4;
