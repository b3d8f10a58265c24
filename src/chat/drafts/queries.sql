-- The SQL of src/chat/drafts/queries.ts, one section per exported function (make snapshots writes this file).

-- deleteDraft
delete from "drafts"
where
  "account_id" = $1
  and "room_id" = $2;

-- draftOfMember
select
  "d"."text",
  "d"."updated_at"
from
  "room_members" as "m"
  inner join "rooms" as "r" on "r"."id" = "m"."room_id"
  and "r"."deleted_at" is null
  left join "drafts" as "d" on "d"."account_id" = "m"."account_id"
  and "d"."room_id" = "m"."room_id"
where
  "m"."room_id" = $1
  and "m"."account_id" = $2;

-- lockMember
select
  "m"."room_id"
from
  "room_members" as "m"
  inner join "rooms" as "r" on "r"."id" = "m"."room_id"
  and "r"."deleted_at" is null
where
  "m"."room_id" = $1
  and "m"."account_id" = $2
for no key update of
  "m";

-- upsertDraft
insert into
  "drafts" ("account_id", "room_id", "text", "updated_at")
values
  ($1, $2, $3, $4)
on conflict ("account_id", "room_id") do update
set
  "text" = "excluded"."text",
  "updated_at" = "excluded"."updated_at"
where
  "drafts"."text" <> "excluded"."text"
returning
  "updated_at";
