-- The SQL of src/chat/contacts/queries.ts, one section per exported function (make snapshots writes this file).

-- acceptRequest
update "contact_requests"
set
  "status" = $1,
  "accepted_at" = $2
where
  "id" = $3;

-- acceptedBetween
select
  "id",
  "requester_id",
  "invitee_id",
  "status"
from
  "contact_requests"
where
  "status" = $1
  and (
    (
      "requester_id" = $2
      and "invitee_id" = $3
    )
    or (
      "requester_id" = $4
      and "invitee_id" = $5
    )
  )
for update;

-- acceptedContact
select
  "c"."id"
from
  "contact_requests" as "c"
  inner join "accounts" as "a" on "a"."id" = $1
  and "a"."status" = $2
where
  "c"."status" = $3
  and (
    (
      "c"."requester_id" = $4
      and "c"."invitee_id" = $5
    )
    or (
      "c"."requester_id" = $6
      and "c"."invitee_id" = $7
    )
  )
limit
  $8;

-- activeUser
select
  "id"
from
  "accounts"
where
  "id" = $1
  and "status" = $2
  and "account_type" = $3;

-- contactOf
select
  "c"."id",
  "c"."requester_id",
  "c"."invitee_id",
  "c"."status",
  "c"."created_at",
  "c"."accepted_at",
  "c"."ended_at",
  "a"."id" as "other_id",
  "a"."display_name",
  "a"."avatar_url",
  "a"."module_code",
  "a"."customer_account_id"
from
  "contact_requests" as "c"
  inner join "accounts" as "a" on "a"."id" = case
    when "c"."requester_id" = $1 then "c"."invitee_id"
    else "c"."requester_id"
  end
where
  (
    "c"."requester_id" = $2
    or "c"."invitee_id" = $3
  )
  and "c"."id" = $4;

-- endRequest
update "contact_requests"
set
  "status" = $1,
  "ended_at" = $2
where
  "id" = $3;

-- insertRequest
insert into
  "contact_requests" (
    "id",
    "requester_id",
    "invitee_id",
    "status",
    "created_at",
    "accepted_at"
  )
values
  ($1, $2, $3, $4, $5, $6);

-- liveRequest
select
  "id",
  "status"
from
  "contact_requests"
where
  "requester_id" = $1
  and "invitee_id" = $2
  and "status" in ($3, $4);

-- lockPair
select
  pg_advisory_xact_lock(hashtextextended ($1, 0));

-- pendingContactPage
select
  "c"."id",
  "c"."requester_id",
  "c"."invitee_id",
  "c"."status",
  "c"."created_at",
  "c"."accepted_at",
  "c"."ended_at",
  "a"."id" as "other_id",
  "a"."display_name",
  "a"."avatar_url",
  "a"."module_code",
  "a"."customer_account_id"
from
  "contact_requests" as "c"
  inner join "accounts" as "a" on "a"."id" = case
    when "c"."requester_id" = $1 then "c"."invitee_id"
    else "c"."requester_id"
  end
where
  (
    "c"."requester_id" = $2
    or "c"."invitee_id" = $3
  )
  and "c"."status" = $4
  and "c"."requester_id" = $5
  and ("c"."created_at", "c"."id") < ($6::timestamptz, $7::uuid)
order by
  "c"."created_at" desc,
  "c"."id" desc
limit
  $8;

-- requestOf
select
  "id",
  "requester_id",
  "invitee_id",
  "status"
from
  "contact_requests"
where
  "id" = $1
for update;
