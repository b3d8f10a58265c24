-- The SQL of src/chat/retention/queries.ts, one section per exported function (make snapshots writes this file).

-- clearCustomerRetention
delete from "customer_retention"
where
  "module_code" = $1
  and "customer_account_id" = $2;

-- clearRoomRetention
delete from "room_retention"
where
  "room_id" = $1;

-- customerRetention
select
  "days",
  "updated_at"
from
  "customer_retention"
where
  "module_code" = $1
  and "customer_account_id" = $2;

-- roomRetention
select
  "rr"."days" as "days",
  "cr"."days" as "customer_days",
  least(rr.days, cr.days) as "effective_days"
from
  "rooms" as "r"
  inner join "accounts" as "a" on "a"."id" = "r"."created_by"
  left join "room_retention" as "rr" on "rr"."room_id" = "r"."id"
  left join "customer_retention" as "cr" on "cr"."module_code" = "a"."module_code"
  and "cr"."customer_account_id" = "a"."customer_account_id"
where
  "r"."id" = $1;

-- setCustomerRetention
insert into
  "customer_retention" (
    "module_code",
    "customer_account_id",
    "days",
    "updated_at"
  )
values
  ($1, $2, $3, $4)
on conflict ("module_code", "customer_account_id") do update
set
  "days" = $5,
  "updated_at" = $6;

-- setRoomRetention
insert into
  "room_retention" ("room_id", "days", "updated_at")
values
  ($1, $2, $3)
on conflict ("room_id") do update
set
  "days" = $4,
  "updated_at" = $5;
