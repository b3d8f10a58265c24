-- The SQL of src/chat/bots/message-queries.ts, one section per exported function (make snapshots writes this file).

-- botMessages
select
  "m"."id",
  "m"."room_id",
  "m"."seq",
  "m"."sender_id",
  "m"."text",
  "m"."created_at",
  "m"."edited_at",
  "m"."recalled_at",
  "m"."thread_root_id",
  "m"."poll_id",
  "m"."inline_keyboard" as "inline_keyboard",
  "m"."attachments" as "attachments",
  "m"."formatting" as "formatting",
  "sa"."display_name" as "sender_name",
  "sa"."account_type" as "sender_type",
  "sb"."username" as "sender_username",
  "sa"."bot_api_id" as "sender_api_id",
  "r"."type" as "room_type",
  "r"."name" as "room_name",
  "r"."bot_api_id" as "room_api_id",
  "root"."seq" as "root_seq",
  "root"."sender_id" as "root_sender_id",
  "root"."text" as "root_text",
  "root"."created_at" as "root_created_at",
  "root"."edited_at" as "root_edited_at",
  "root"."recalled_at" as "root_recalled_at",
  "root"."inline_keyboard" as "root_inline_keyboard",
  "root"."attachments" as "root_attachments",
  "root"."formatting" as "root_formatting",
  "ra"."display_name" as "root_sender_name",
  "ra"."account_type" as "root_sender_type",
  "rb"."username" as "root_sender_username",
  "ra"."bot_api_id" as "root_sender_api_id",
  "fa"."bot_api_id" as "origin_sender_api_id",
  "fa"."display_name" as "origin_sender_name",
  "fa"."account_type" as "origin_sender_type",
  "fm"."created_at" as "origin_created_at"
from
  "messages" as "m"
  inner join "accounts" as "sa" on "sa"."id" = "m"."sender_id"
  left join "bots" as "sb" on "sb"."account_id" = "m"."sender_id"
  inner join "rooms" as "r" on "r"."id" = "m"."room_id"
  left join "messages" as "root" on "root"."id" = "m"."thread_root_id"
  left join "accounts" as "ra" on "ra"."id" = "root"."sender_id"
  left join "bots" as "rb" on "rb"."account_id" = "root"."sender_id"
  left join "messages" as "fm" on "fm"."id" = "m"."forwarded_from_message_id"
  left join "accounts" as "fa" on "fa"."id" = "fm"."sender_id"
where
  m.id = any ($1::uuid[]);
