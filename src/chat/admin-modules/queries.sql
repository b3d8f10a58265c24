-- The SQL of src/chat/admin-modules/queries.ts, one section per exported function (make snapshots writes this file).

-- keyCustomers
select distinct
  "module_code",
  "customer_account_id"
from
  "customer_keys"
order by
  "customer_account_id";
