-- The SQL of src/chat/channels/sync-queries.ts, one section per exported function (make snapshots writes this file).

-- accountTenancy
select
  "module_code",
  "customer_account_id",
  "account_type"
from
  "accounts"
where
  "id" = $1;

-- addToRooms
insert into
  "room_members" (
    "room_id",
    "account_id",
    "role",
    "joined_at",
    "last_read_seq"
  )
select
  "r"."id" as "room_id",
  "x"."id" as "account_id",
  'MEMBER' as "role",
  $1::timestamptz as "joined_at",
  "r"."last_seq"
from
  "rooms" as "r"
  cross join unnest($2::uuid[]) as x (id)
where
  "r"."id" = any ($3::uuid[])
on conflict do nothing
returning
  "room_id",
  "account_id";

-- channelsMatching
select
  "v"."cid"
from
  "accounts" as "a"
  cross join lateral (
    values
      (
        $1::uuid,
        (
          coalesce("a"."team" = $2::text, false)
          and (
            (a.tags @> array[$3::text])
            or coalesce("a"."role" = any ($4::text[]), false)
          )
          and (not (a.tags && $5::text[]))
        )
      ),
      (
        $6::uuid,
        coalesce("a"."department" = $7::text, false)
      )
  ) as v (cid, hit)
where
  "a"."id" = $8
  and "v"."hit";

-- countChannelMembers
update "channels"
set
  "member_count" = "member_count" + $1
where
  "id" = $2;

-- countRoomMembers
update "rooms" as "r"
set
  "member_count" = "r"."member_count" + "d"."n"
from
  (
    select
      unnest($1::uuid[]) as "id",
      unnest($2::int[]) as "n"
  ) as "d"
where
  "r"."id" = "d"."id";

-- deleteChannelMember
delete from "channel_members"
where
  "channel_id" = $1
  and "account_id" = $2;

-- evaluateRule
with
  "matched" as (
    select
      "a"."id"
    from
      "accounts" as "a"
    where
      "a"."module_code" = $1
      and "a"."customer_account_id" = $2
      and "a"."account_type" = $3
      and (
        coalesce("a"."team" = $4::text, false)
        and (
          (a.tags @> array[$5::text])
          or coalesce("a"."role" = any ($6::text[]), false)
        )
        and (not (a.tags && $7::text[]))
      )
  ),
  "removed" as (
    delete from "channel_members"
    where
      "channel_members"."channel_id" = $8
      and "channel_members"."role" = $9
      and not exists (
        select
          1 as "one"
        from
          "matched" as "x"
        where
          "x"."id" = "channel_members"."account_id"
      )
    returning
      "channel_members"."account_id"
  ),
  "added" as (
    insert into
      "channel_members" ("channel_id", "account_id", "role", "joined_at")
    select
      $10::uuid as "channel_id",
      "x"."id",
      'MEMBER' as "role",
      $11::timestamptz as "joined_at"
    from
      "matched" as "x"
    on conflict do nothing
    returning
      "account_id"
  )
select
  array(
    (
      select
        "account_id"
      from
        "added"
    )
  ) as "added",
  array(
    (
      select
        "account_id"
      from
        "removed"
    )
  ) as "removed";

-- evaluationQuery
with
  "matched" as (
    select
      "a"."id"
    from
      "accounts" as "a"
    where
      "a"."module_code" = $1
      and "a"."customer_account_id" = $2
      and "a"."account_type" = $3
      and (
        coalesce("a"."team" = $4::text, false)
        and (
          (a.tags @> array[$5::text])
          or coalesce("a"."role" = any ($6::text[]), false)
        )
        and (not (a.tags && $7::text[]))
      )
  ),
  "removed" as (
    delete from "channel_members"
    where
      "channel_members"."channel_id" = $8
      and "channel_members"."role" = $9
      and not exists (
        select
          1 as "one"
        from
          "matched" as "x"
        where
          "x"."id" = "channel_members"."account_id"
      )
    returning
      "channel_members"."account_id"
  ),
  "added" as (
    insert into
      "channel_members" ("channel_id", "account_id", "role", "joined_at")
    select
      $10::uuid as "channel_id",
      "x"."id",
      'MEMBER' as "role",
      $11::timestamptz as "joined_at"
    from
      "matched" as "x"
    on conflict do nothing
    returning
      "account_id"
  )
select
  array(
    (
      select
        "account_id"
      from
        "added"
    )
  ) as "added",
  array(
    (
      select
        "account_id"
      from
        "removed"
    )
  ) as "removed";

-- insertChannelMember
insert into
  "channel_members" ("channel_id", "account_id", "role", "joined_at")
values
  ($1, $2, $3, $4);

-- lockChannelRooms
select
  "id"
from
  "rooms"
where
  "channel_id" = $1
  and "deleted_at" is null
order by
  "id"
for update;

-- lockRuleChannels
select
  "id",
  "rule"
from
  "channels"
where
  "module_code" = $1
  and "customer_account_id" = $2
  and "membership_mode" = $3
  and "deleted_at" is null
order by
  "id"
for update;

-- removeFromRooms
delete from "room_members"
where
  "room_id" = any ($1::uuid[])
  and "account_id" = any ($2::uuid[])
returning
  "room_id",
  "account_id";

-- rolesIn
select
  "channel_id",
  "role"
from
  "channel_members"
where
  "account_id" = $1
  and "channel_id" = any ($2::uuid[]);

-- ruleExpression
select
  "a"."id"
from
  "accounts" as "a"
where
  (
    coalesce("a"."team" = $1::text, false)
    and (
      (a.tags @> array[$2::text])
      or coalesce("a"."role" = any ($3::text[]), false)
    )
    and (not (a.tags && $4::text[]))
  );
