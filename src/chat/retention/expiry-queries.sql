-- The SQL of src/chat/retention/expiry-queries.ts, one section per exported function (make snapshots writes this file).

-- expiredMessages
select
  "x"."id"
from
  "rooms" as "r"
  inner join "accounts" as "a" on "a"."id" = "r"."created_by"
  left join "room_retention" as "rr" on "rr"."room_id" = "r"."id"
  left join "customer_retention" as "cr" on "cr"."module_code" = "a"."module_code"
  and "cr"."customer_account_id" = "a"."customer_account_id"
  inner join lateral (
    select
      "m"."id"
    from
      "messages" as "m"
    where
      "m"."room_id" = "r"."id"
      and "m"."created_at" < $1::timestamptz - make_interval(days => least(rr.days, cr.days))
    order by
      "m"."created_at"
    limit
      $2
  ) as "x" on true
where
  (
    "rr"."days" is not null
    or "cr"."days" is not null
  )
limit
  $3;
