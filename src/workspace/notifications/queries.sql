-- The SQL of src/workspace/notifications/queries.ts, one section per exported function (make snapshots writes this file).

-- notificationAddresses
select
  "ws"."id" as "workspace_id",
  "ws"."notification_email" as "email",
  "a"."email" as "owner_email"
from
  "workspaces" as "ws"
  inner join "accounts" as "a" on "a"."id" = "ws"."owner_id"
where
  "ws"."id" = $1;

-- setNotificationEmail
update "workspaces"
set
  "notification_email" = $1,
  "updated_at" = $2
where
  "id" = $3;
