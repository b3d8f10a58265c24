-- The SQL of src/core/auth/queries.ts, one section per exported function (make snapshots writes this file).

-- accountById
select
  "id",
  "status",
  "module_code",
  "customer_account_id"
from
  "accounts"
where
  "id" = $1;

-- allVerifyKeys
select
  "module_code",
  "customer_account_id",
  "kid",
  "algorithm",
  "public_key_pem"
from
  "customer_keys";

-- customerVerifyKeys
select
  "kid",
  "algorithm",
  "public_key_pem"
from
  "customer_keys"
where
  "module_code" = $1
  and "customer_account_id" = $2;
