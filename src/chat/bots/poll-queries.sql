-- The SQL of src/chat/bots/poll-queries.ts, one section per exported function (make snapshots writes this file).

-- botPollRow
select
  "bot_id",
  "is_anonymous",
  "quiz",
  "explanation",
  correct_option_ids as "correct_option_ids",
  "explanation_entities" as "explanation_entities"
from
  "bot_polls"
where
  "poll_id" = $1;

-- optionPositionRows
select
  "id",
  "position"
from
  "poll_options"
where
  "poll_id" = $1;
