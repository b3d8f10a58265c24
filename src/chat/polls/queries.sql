-- The SQL of src/chat/polls/queries.ts, one section per exported function (make snapshots writes this file).

-- bumpRoomSeq
update "rooms"
set
  "last_seq" = "last_seq" + $1,
  "last_activity_at" = $2
where
  "id" = $3
  and "deleted_at" is null
  and exists (
    select
      1 as "one"
    from
      "room_members"
    where
      "room_id" = $4
      and "account_id" = $5
  )
returning
  "last_seq";

-- insertPoll
insert into
  "messages" (
    "id",
    "room_id",
    "seq",
    "sender_id",
    "type",
    "text",
    "created_at",
    "poll_id"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8);

insert into
  "polls" (
    "id",
    "room_id",
    "message_id",
    "creator_id",
    "question",
    "multiple_choice",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7);

insert into
  "poll_options" ("id", "poll_id", "position", "text")
values
  ($1, $2, $3, $4),
  ($5, $6, $7, $8);

-- lockOpenPollOfMessage
select
  "p"."id",
  "p"."room_id",
  "p"."message_id",
  "p"."creator_id",
  "p"."question",
  "p"."multiple_choice",
  "p"."created_at",
  "p"."closed_at",
  "p"."closed_by",
  'MEMBER' as "my_role"
from
  "polls" as "p"
where
  "p"."message_id" = $1
  and "p"."closed_at" is null
for update;

-- markPollClosed
update "polls"
set
  "closed_at" = $1,
  "closed_by" = $2
where
  "id" = $3;

-- pollForCaller
select
  "p"."id",
  "p"."room_id",
  "p"."message_id",
  "p"."creator_id",
  "p"."question",
  "p"."multiple_choice",
  "p"."created_at",
  "p"."closed_at",
  "p"."closed_by",
  m.role as "my_role"
from
  "polls" as "p"
  inner join "rooms" as "r" on "r"."id" = "p"."room_id"
  and "r"."deleted_at" is null
  inner join "room_members" as "m" on "m"."room_id" = "p"."room_id"
  and "m"."account_id" = $1
where
  "p"."id" = $2
for update of
  "p";

-- pollOptions
select
  "id",
  "position"
from
  "poll_options"
where
  "poll_id" = $1;

-- pollResults
select
  coalesce(
    (
      select
        json_agg(
          json_build_object(
            'id',
            o.id,
            'text',
            o.text,
            'votes',
            (
              select
                count(*)
              from
                poll_ballots b
              where
                b.poll_id = o.poll_id
                and o.id = any (b.option_ids)
            )
          )
          order by
            o.position
        ) as "agg"
      from
        "poll_options" as "o"
      where
        "o"."poll_id" = $1
    ),
    '[]'::json
  ) as "options",
  (
    select
      count(*)::int as "n"
    from
      "poll_ballots" as "b"
    where
      "b"."poll_id" = $2
  ) as "total_voters",
  (
    select
      "b"."option_ids"
    from
      "poll_ballots" as "b"
    where
      "b"."poll_id" = $3
      and "b"."account_id" = $4
  ) as "my_vote";

-- pollRowQuery
select
  "p"."id",
  "p"."room_id",
  "p"."message_id",
  "p"."creator_id",
  "p"."question",
  "p"."multiple_choice",
  "p"."created_at",
  "p"."closed_at",
  "p"."closed_by",
  m.role as "my_role"
from
  "polls" as "p"
  inner join "rooms" as "r" on "r"."id" = "p"."room_id"
  and "r"."deleted_at" is null
  inner join "room_members" as "m" on "m"."room_id" = "p"."room_id"
  and "m"."account_id" = $1
where
  "p"."id" = $2
for share of
  "p";

-- upsertBallot
insert into
  "poll_ballots" ("poll_id", "account_id", "option_ids", "voted_at")
values
  ($1, $2, $3::uuid[], $4)
on conflict ("poll_id", "account_id") do update
set
  "option_ids" = "excluded"."option_ids",
  "voted_at" = "excluded"."voted_at"
where
  "poll_ballots"."option_ids" <> "excluded"."option_ids";
