-- The SQL of src/chat/members/queries.ts, one section per exported function (make snapshots writes this file).

-- approvePendingOf
update "join_requests"
set
  "status" = $1,
  "resolved_at" = $2,
  "resolved_by" = $3
where
  "room_id" = $4
  and "account_id" = any ($5::uuid[])
  and "status" = $6;

-- countMembers
update "rooms"
set
  "member_count" = "member_count" + $1
where
  "id" = $2;

-- deleteMember
delete from "room_members"
where
  "room_id" = $1
  and "account_id" = $2;

-- insertPendingRequests
insert into
  "join_requests" (
    "id",
    "room_id",
    "account_id",
    "requested_by",
    "status",
    "created_at"
  )
select
  unnest($1::uuid[]) as "id",
  $2::uuid as "room_id",
  unnest($3::uuid[]) as "account_id",
  $4::uuid as "requested_by",
  'PENDING' as "status",
  $5::timestamptz as "created_at"
on conflict ("room_id", "account_id")
where
  "status" = 'PENDING' do nothing
returning
  "id",
  "account_id";

-- lockRequest
select
  "account_id",
  "requested_by",
  "status"
from
  "join_requests"
where
  "id" = $1
  and "room_id" = $2
for update;

-- memberRole
select
  "role"
from
  "room_members"
where
  "room_id" = $1
  and "account_id" = $2;

-- membersAmong
select
  "account_id"
from
  "room_members"
where
  "room_id" = $1
  and "account_id" = any ($2::uuid[]);

-- otherOwners
select
  count(*)::int as "n"
from
  "room_members"
where
  "room_id" = $1
  and "role" = $2
  and "account_id" <> $3;

-- othersThan
select
  count(*)::int as "others",
  (
    count(*) filter (
      where
        role = 'OWNER'
    )
  )::int as "other_owners"
from
  "room_members"
where
  "room_id" = $1
  and "account_id" <> $2;

-- requestAudience
select
  "account_id"
from
  "room_members"
where
  "room_id" = $1
  and "role" in ($2, $3);

-- resolveRequest
update "join_requests"
set
  "status" = $1,
  "resolved_at" = $2,
  "resolved_by" = $3
where
  "id" = $4;

-- setMemberRole
update "room_members"
set
  "role" = $1
where
  "room_id" = $2
  and "account_id" = $3;
