-- The SQL of src/chat/erasure/message-queries.ts, one section per exported function (make snapshots writes this file).

-- anonymizeMessages
update "messages"
set
  "text" = case
    when recalled_at is null then $1::text
  end,
  "formatting" = $2,
  "entities" = $3,
  "attachments" = $4,
  "inline_keyboard" = $5,
  "reply_markup" = $6
where
  "sender_id" = $7
  and "id" in ($8)
returning
  "id",
  "room_id";

-- messageIdsOf
select
  "id"
from
  "messages"
where
  "sender_id" = $1
  and "id" > $2
order by
  "id"
limit
  $3;
