-- The SQL of src/chat/labels/queries.ts, one section per exported function (make snapshots writes this file).

-- addRoomLabels
insert into
  "room_labels" ("label_id", "room_id", "account_id", "created_at")
values
  ($1, $2, $3, $4),
  ($5, $6, $7, $8)
on conflict do nothing;

-- countLabels
select
  count(*)::int as "n"
from
  "labels"
where
  "owner_id" = $1;

-- deleteLabel
delete from "labels"
where
  "id" = $1;

-- deleteRoomLabelsOf
delete from "room_labels"
where
  "label_id" = $1
returning
  "room_id";

-- insertLabel
insert into
  "labels" (
    "id",
    "owner_id",
    "name",
    "color",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6);

-- labelOf
select
  "l"."id",
  "l"."owner_id",
  "l"."name",
  "l"."color",
  "l"."created_at",
  "l"."updated_at",
  (
    select
      count(*)::int as "n"
    from
      "room_labels" as "rl"
    where
      "rl"."label_id" = "l"."id"
  ) as "room_count"
from
  "labels" as "l"
where
  "l"."id" = $1
  and "l"."owner_id" = $2
for update of
  "l";

-- labelsOf
select
  "l"."id",
  "l"."owner_id",
  "l"."name",
  "l"."color",
  "l"."created_at",
  "l"."updated_at",
  (
    select
      count(*)::int as "n"
    from
      "room_labels" as "rl"
    where
      "rl"."label_id" = "l"."id"
  ) as "room_count"
from
  "labels" as "l"
where
  "l"."owner_id" = $1
order by
  lower(l.name),
  "l"."id";

-- lockLabelCreation
select
  pg_advisory_xact_lock(hashtextextended ($1, 0));

-- lockOwnedLabels
select
  "id"
from
  "labels"
where
  "owner_id" = $1
  and "id" = any ($2::uuid[])
for key share;

-- removeRoomLabelsExcept
delete from "room_labels"
where
  "account_id" = $1
  and "room_id" = $2
  and not "label_id" = any ($3::uuid[]);

-- roomLabelIds
select
  "l"."id"
from
  "room_labels" as "rl"
  inner join "labels" as "l" on "l"."id" = "rl"."label_id"
where
  "rl"."account_id" = $1
  and "rl"."room_id" = $2
order by
  lower(l.name),
  "l"."id";

-- updateLabel
update "labels"
set
  "name" = $1,
  "color" = $2,
  "updated_at" = $3
where
  "id" = $4;
