-- The SQL of src/chat/broadcasts/queries.ts, one section per exported function (make snapshots writes this file).

-- addressedSeq
select
  "b"."seq"
from
  "accounts" as "me"
  inner join "broadcasts" as "b" on (
    (
      "b"."modules" is null
      or $1::text = any (b.modules)
    )
    and "b"."created_at" >= "me"."created_at"
  )
where
  "me"."id" = $2
  and "b"."id" = $3;

select
  max("b"."seq") as "seq"
from
  "accounts" as "me"
  inner join "broadcasts" as "b" on (
    (
      "b"."modules" is null
      or $1::text = any (b.modules)
    )
    and "b"."created_at" >= "me"."created_at"
  )
where
  "me"."id" = $2;

-- advanceReadMark
insert into
  "broadcast_reads" ("account_id", "last_read_seq", "updated_at")
values
  ($1, $2, $3)
on conflict ("account_id") do update
set
  "last_read_seq" = "excluded"."last_read_seq",
  "updated_at" = "excluded"."updated_at"
where
  "broadcast_reads"."last_read_seq" < "excluded"."last_read_seq";

-- broadcastFeed
select
  "b"."id",
  "b"."seq",
  "b"."title",
  "b"."text",
  "b"."modules",
  "b"."created_by",
  "b"."created_at",
  b.seq <= coalesce(r.last_read_seq, 0) as "read"
from
  "accounts" as "me"
  left join "broadcast_reads" as "r" on "r"."account_id" = "me"."id"
  inner join "broadcasts" as "b" on (
    (
      "b"."modules" is null
      or $1::text = any (b.modules)
    )
    and "b"."created_at" >= "me"."created_at"
  )
where
  "me"."id" = $2
  and "b"."seq" < $3
order by
  "b"."seq" desc
limit
  $4;

-- broadcastIdAt
select
  "id"
from
  "broadcasts"
where
  "seq" = $1;

-- insertBroadcast
insert into
  "broadcasts" (
    "id",
    "title",
    "text",
    "modules",
    "created_by",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6)
returning
  "id",
  "seq",
  "title",
  "text",
  "modules",
  "created_by",
  "created_at";

-- knownModules
select
  "code"
from
  "modules"
where
  code = any ($1::text[]);

-- lockBroadcastCreation
select
  pg_advisory_xact_lock($1) as "locked";

-- readMarkOf
select
  (
    select
      "id"
    from
      "broadcasts"
    where
      "seq" = "r"."last_read_seq"
  ) as "last_read_id",
  (
    select
      count(*)::int as "n"
    from
      "broadcasts" as "b"
    where
      (
        (
          "b"."modules" is null
          or $1::text = any (b.modules)
        )
        and "b"."created_at" >= "me"."created_at"
      )
      and b.seq > coalesce(r.last_read_seq, 0)
  ) as "unread_count"
from
  "accounts" as "me"
  left join "broadcast_reads" as "r" on "r"."account_id" = "me"."id"
where
  "me"."id" = $2;
