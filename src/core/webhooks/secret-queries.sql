-- The SQL of src/core/webhooks/secret-queries.ts, one section per exported function (make snapshots writes this file).

-- insertSecretKey
insert into
  "platform_secrets" ("name", "value")
values
  ($1, $2)
on conflict ("name") do nothing;

-- storedSecretKey
select
  "value"
from
  "platform_secrets"
where
  "name" = $1;
