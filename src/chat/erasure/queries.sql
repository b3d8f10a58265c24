-- The SQL of src/chat/erasure/queries.ts, one section per exported function (make snapshots writes this file).

-- advanceJob
update "erasures"
set
  "step" = $1,
  "cursor" = $2,
  "lease_until" = $3
where
  "id" = $4;

-- claimErasure
update "erasures"
set
  "state" = $1,
  "lease_until" = $2
where
  "id" = (
    select
      "id"
    from
      "erasures"
    where
      (
        "state" = $3
        or (
          "state" = $4
          and "lease_until" <= $5
        )
      )
    order by
      "requested_at"
    limit
      $6
    for update
      skip locked
  )
returning
  "id",
  "account_id",
  "messages",
  "step",
  "cursor";

-- erasureInScope
select
  "e"."id",
  "e"."account_id",
  "e"."erased_by",
  "e"."requested_at",
  "e"."messages",
  "e"."state",
  "e"."finished_at"
from
  "erasures" as "e"
  inner join "accounts" as "a" on "a"."id" = "e"."account_id"
where
  "e"."id" = $1
  and "a"."module_code" = $2
  and "a"."customer_account_id" = $3;

-- erasureOfAccount
select
  "e"."id",
  "e"."account_id",
  "e"."erased_by",
  "e"."requested_at",
  "e"."messages",
  "e"."state",
  "e"."finished_at"
from
  "erasures" as "e"
where
  "e"."account_id" = $1;

-- finishJob
update "erasures"
set
  "state" = $1,
  "step" = $2,
  "cursor" = $3,
  "lease_until" = $4,
  "finished_at" = $5
where
  "id" = $6;

-- insertErasure
insert into
  "erasures" (
    "id",
    "account_id",
    "erased_by",
    "requested_at",
    "messages",
    "state",
    "step",
    "cursor",
    "lease_until",
    "finished_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- lockAccountForErasure
select
  "id",
  "module_code",
  "customer_account_id",
  "status"
from
  "accounts"
where
  "id" = $1
for update;

-- lockJob
select
  "id",
  "account_id",
  "messages",
  "step",
  "cursor"
from
  "erasures"
where
  "id" = $1
  and "state" = $2
for update;

-- markAccountErased
update "accounts"
set
  "status" = $1,
  "updated_at" = $2
where
  "id" = $3;

-- releaseJob
update "erasures"
set
  "lease_until" = $1
where
  "id" = $2
  and "state" = $3;

-- stepOf
select
  "step"
from
  "erasures"
where
  "id" = $1
  and "state" = $2;
