-- The SQL of src/chat/bots/api/callback-queries.ts, one section per exported function (make snapshots writes this file).

-- answerPress
update "bot_callback_queries"
set
  "answered_at" = $1
where
  "id" = $2
  and "bot_id" = $3
  and "answered_at" is null
  and "created_at" > $4
returning
  "room_id",
  "message_id",
  "account_id";
