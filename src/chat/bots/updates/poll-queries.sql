-- The SQL of src/chat/bots/updates/poll-queries.ts, one section per exported function (make snapshots writes this file).

-- ballotsWithTold
select
  "v"."account_id",
  "v"."option_ids",
  "a"."bot_api_id",
  "a"."display_name",
  "a"."account_type",
  s.option_ids as "told"
from
  "poll_ballots" as "v"
  inner join "accounts" as "a" on "a"."id" = "v"."account_id"
  left join "bot_poll_answers" as "s" on "s"."poll_id" = "v"."poll_id"
  and "s"."account_id" = "v"."account_id"
where
  "v"."poll_id" = $1
order by
  "v"."voted_at",
  "v"."account_id";

-- recordTold
insert into
  "bot_poll_answers" ("poll_id", "account_id", "option_ids")
values
  ($1, $2, $3::smallint[])
on conflict ("poll_id", "account_id") do update
set
  "option_ids" = "excluded"."option_ids";

-- recordToldPoll
update "bot_polls"
set
  "told_poll" = $1::jsonb
where
  "poll_id" = $2
  and told_poll is distinct from $3::jsonb;

-- senderOf
select
  "b"."id",
  "b"."account_id",
  "b"."allowed_updates",
  "p"."is_anonymous"
from
  "bot_polls" as "p"
  inner join "bots" as "b" on "b"."id" = "p"."bot_id"
  and "b"."deleted_at" is null
where
  "p"."poll_id" = $1;
