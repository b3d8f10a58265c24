-- The SQL of src/chat/erasure/data-queries.ts, one section per exported function (make snapshots writes this file).

-- blankProfile
update "accounts"
set
  "display_name" = $1,
  "avatar_url" = $2,
  "email" = $3,
  "username" = $4,
  "team" = $5,
  "department" = $6,
  "role" = $7,
  "tags" = '{}'::text[],
  "updated_at" = $8
where
  "id" = $9;

-- deleteExports
delete from "account_exports"
where
  "account_id" = $1
returning
  "id";

-- deleteOwnedThings
delete from "drafts"
where
  "account_id" = $1;

delete from "labels"
where
  "owner_id" = $1;

delete from "saved_messages"
where
  "account_id" = $1;

delete from "contact_requests"
where
  (
    "requester_id" = $1
    or "invitee_id" = $2
  );

delete from "message_reactions"
where
  "account_id" = $1;

delete from "receipt_settings"
where
  "account_id" = $1;

delete from "read_notices"
where
  "sender_id" = $1;

-- deleteTimedThings
delete from "reminder_occurrences"
where
  "reminder_id" in (
    select
      "id"
    from
      "reminders"
    where
      "owner_id" = $1
  );

delete from "reminders"
where
  "owner_id" = $1;

delete from "scheduled_messages"
where
  "sender_id" = $1;

-- deleteUploads
delete from "uploads"
where
  "id" in (
    select
      "id"
    from
      "uploads"
    where
      "owner_id" = $1
    order by
      "id"
    limit
      $2
    for update
  )
returning
  "id";
