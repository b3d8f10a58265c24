-- The SQL of src/chat/messages/reaction-queries.ts, one section per exported function (make snapshots writes this file).

-- addReaction
insert into
  "message_reactions" ("message_id", "emoji", "account_id", "created_at")
values
  ($1, $2, $3, $4)
on conflict ("message_id", "emoji", "account_id") do nothing;

-- reactionSummary
select
  "emoji",
  count(*)::int as "count",
  bool_or(account_id = $1) as "reacted_by_me"
from
  "message_reactions"
where
  "message_id" = $2
group by
  "emoji"
order by
  min(created_at),
  "emoji";

-- removeReaction
delete from "message_reactions"
where
  "message_id" = $1
  and "emoji" = $2
  and "account_id" = $3;
