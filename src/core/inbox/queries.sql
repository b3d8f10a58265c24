-- The SQL of src/core/inbox/queries.ts, one section per exported function (make snapshots writes this file).

-- conversationById
select
  "id",
  "channel",
  "subject",
  "contact_id",
  "customer_handle",
  "status",
  "assignee_id",
  "last_message_at",
  "first_response_at",
  "closed_at",
  "created_at",
  "updated_at"
from
  "inbox_conversations"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3
for update;

-- conversationsPage
select
  "id",
  "channel",
  "subject",
  "contact_id",
  "customer_handle",
  "status",
  "assignee_id",
  "last_message_at",
  "first_response_at",
  "closed_at",
  "created_at",
  "updated_at"
from
  "inbox_conversations"
where
  "workspace_id" = $1
  and "environment" = $2
  and "status" = $3
  and "channel" = $4
  and "assignee_id" = $5
  and "contact_id" = $6
  and "id" < $7
order by
  "id" desc
limit
  $8;

-- insertConversation
insert into
  "inbox_conversations" (
    "id",
    "workspace_id",
    "environment",
    "channel",
    "subject",
    "contact_id",
    "customer_handle",
    "status",
    "created_at",
    "updated_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
returning
  "id",
  "channel",
  "subject",
  "contact_id",
  "customer_handle",
  "status",
  "assignee_id",
  "last_message_at",
  "first_response_at",
  "closed_at",
  "created_at",
  "updated_at";

-- insertMessage
insert into
  "inbox_messages" (
    "id",
    "workspace_id",
    "environment",
    "conversation_id",
    "direction",
    "text",
    "author_id",
    "created_at"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8)
returning
  "id",
  "conversation_id",
  "direction",
  "text",
  "author_id",
  "created_at";

-- messageById
select
  "id",
  "conversation_id",
  "direction",
  "text",
  "author_id",
  "created_at"
from
  "inbox_messages"
where
  "workspace_id" = $1
  and "environment" = $2
  and "id" = $3;

-- messagesPage
select
  "id",
  "conversation_id",
  "direction",
  "text",
  "author_id",
  "created_at"
from
  "inbox_messages"
where
  "workspace_id" = $1
  and "environment" = $2
  and "conversation_id" = $3
  and "direction" = $4
  and "id" < $5
order by
  "id" desc
limit
  $6;

-- touchConversation
update "inbox_conversations"
set
  "last_message_at" = $1,
  "updated_at" = $2,
  "first_response_at" = case
    when $3::boolean
    and first_response_at is null then $4::timestamptz
    else first_response_at
  end
where
  "id" = $5;

-- updateConversationAssignee
update "inbox_conversations"
set
  "assignee_id" = $1,
  "updated_at" = $2
where
  "id" = $3
returning
  "id",
  "channel",
  "subject",
  "contact_id",
  "customer_handle",
  "status",
  "assignee_id",
  "last_message_at",
  "first_response_at",
  "closed_at",
  "created_at",
  "updated_at";

-- updateConversationStatus
update "inbox_conversations"
set
  "status" = $1,
  "closed_at" = $2,
  "updated_at" = $3
where
  "id" = $4
returning
  "id",
  "channel",
  "subject",
  "contact_id",
  "customer_handle",
  "status",
  "assignee_id",
  "last_message_at",
  "first_response_at",
  "closed_at",
  "created_at",
  "updated_at";

-- workspaceMembersAmong
select
  "account_id"
from
  "workspace_members"
where
  "workspace_id" = $1
  and account_id = any ($2::uuid[]);
