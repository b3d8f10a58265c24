-- The SQL of src/chat/exports/queries.ts, one section per exported function (make snapshots writes this file).

-- claimExport
update "account_exports"
set
  "state" = 'running',
  "lease_until" = $1,
  "attempts" = "attempts" + $2
where
  "id" = (
    select
      "n"."id"
    from
      (
        select
          "id"
        from
          "account_exports"
        where
          (
            "state" = 'queued'
            or (
              "state" = 'running'
              and "lease_until" <= $3
            )
          )
        order by
          "created_at"
        limit
          $4
        for update
          skip locked
      ) as "n"
  )
returning
  "id",
  "account_id",
  "created_at",
  "attempts",
  "lease_until";

-- deleteExports
delete from "account_exports"
where
  "id" in ($1);

-- exportOf
select
  "id",
  "account_id",
  "state",
  "created_at",
  "completed_at",
  "size",
  "attempts"
from
  "account_exports"
where
  "id" = $1
  and "account_id" = $2;

-- exportsBefore
select
  "id"
from
  "account_exports"
where
  "created_at" < $1
order by
  "created_at"
limit
  $2;

-- failExport
update "account_exports"
set
  "state" = $1,
  "error" = $2,
  "lease_until" = $3
where
  "id" = $4
  and "state" = 'running'
  and "lease_until" = $5;

-- finishExport
update "account_exports"
set
  "state" = $1,
  "completed_at" = $2,
  "size" = $3,
  "lease_until" = $4
where
  "id" = $5
  and "state" = 'running'
  and "lease_until" = $6;

-- insertExport
insert into
  "account_exports" ("id", "account_id", "state", "created_at")
values
  ($1, $2, $3, $4)
on conflict ("account_id")
where
  "state" in ('queued', 'running') do nothing
returning
  "id",
  "account_id",
  "state",
  "created_at",
  "completed_at",
  "size",
  "attempts";
