-- The SQL of src/chat/bots/api/poll-queries.ts, one section per exported function (make snapshots writes this file).

-- insertBotPoll
insert into
  "bot_polls" (
    "poll_id",
    "bot_id",
    "is_anonymous",
    "quiz",
    "correct_option_ids",
    "explanation",
    "explanation_entities"
  )
values
  ($1, $2, $3, $4, $5::smallint[], $6, $7);

-- pollOfMessage
select
  "p"."id",
  "p"."creator_id",
  "p"."closed_at"
from
  "messages" as "m"
  inner join "polls" as "p" on "p"."message_id" = "m"."id"
where
  "m"."room_id" = $1
  and "m"."seq" = $2
  and "m"."recalled_at" is null;
