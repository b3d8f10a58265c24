-- The SQL of src/chat/presence/queries.ts, one section per exported function (make snapshots writes this file).

-- presenceListeners
with
  "s" as (
    select
      unnest($1::uuid[]) as "id"
  )
select
  "s"."id" as "subject",
  "s"."id" as "id"
from
  "s"
union
select
  "s"."id" as "subject",
  "b"."account_id" as "id"
from
  "s"
  inner join "room_members" as "a" on "a"."account_id" = "s"."id"
  inner join "rooms" as "r" on "r"."id" = "a"."room_id"
  and "r"."member_count" <= $2
  inner join "room_members" as "b" on "b"."room_id" = "a"."room_id"
union
select
  "s"."id" as "subject",
  case
    when "c"."requester_id" = "s"."id" then "c"."invitee_id"
    else "c"."requester_id"
  end as "id"
from
  "s"
  inner join "contact_requests" as "c" on "c"."status" = $3
  and (
    "c"."requester_id" = "s"."id"
    or "c"."invitee_id" = "s"."id"
  );

-- roomMemberIds
select
  "account_id"
from
  "room_members"
where
  "room_id" = $1;

-- visibleIds
select
  "x"."id"
from
  unnest($1::uuid[]) as x (id)
where
  (
    "x"."id" = $2
    or exists (
      select
        1 as "one"
      from
        "room_members" as "a"
        inner join "room_members" as "b" on "b"."room_id" = "a"."room_id"
      where
        "a"."account_id" = $3
        and "b"."account_id" = "x"."id"
    )
    or exists (
      select
        1 as "one"
      from
        "contact_requests" as "c"
      where
        "c"."status" = $4
        and (
          (
            "c"."requester_id" = $5
            and "c"."invitee_id" = "x"."id"
          )
          or (
            "c"."invitee_id" = $6
            and "c"."requester_id" = "x"."id"
          )
        )
    )
  );
