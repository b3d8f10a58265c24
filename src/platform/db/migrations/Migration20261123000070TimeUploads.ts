import { Migration } from '@mikro-orm/migrations';

/**
 * Upload sessions and message attachments, scheduled messages, and reminders with their occurrences. PostgreSQL is
 * the record of truth of every timer: a fire claims its row (or occurrence key) in the transaction that inserts the
 * message, so a timer fires once however many workers see it.
 */
export class Migration20261123000070TimeUploads extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table uploads (
        id uuid primary key,
        owner_id uuid not null references accounts (id),
        file_name text not null,
        content_type text not null,
        -- the size declared at session creation: the most bytes the media service takes
        declared_size bigint not null,
        -- bytes actually received, once COMPLETE
        size bigint,
        status text not null check (status in ('PENDING', 'UPLOADING', 'COMPLETE')),
        -- sha256 of the session's upload token; the token itself is never stored
        token_hash bytea not null unique,
        expires_at timestamptz not null,
        created_at timestamptz not null,
        completed_at timestamptz,
        -- the first (sent) message that carried it; an upload is sent once
        message_id uuid,
        attached_at timestamptz,
        -- the file was removed: every message carrying it was recalled
        purged_at timestamptz
      );
      create index uploads_unattached_expiry on uploads (expires_at) where attached_at is null;
      create index uploads_attached_live on uploads (message_id) where attached_at is not null and purged_at is null;

      -- Files a message carries, [{id, fileName, contentType, size}], copied with forwards; null for most messages,
      -- so the partial index costs nothing to plain sends. Downloads look carriers up through it.
      alter table messages add column attachments jsonb;
      create index messages_attachments on messages using gin (attachments jsonb_path_ops) where attachments is not null;

      create table scheduled_messages (
        id uuid primary key,
        room_id uuid not null references rooms (id),
        sender_id uuid not null references accounts (id),
        text text not null,
        thread_root_id uuid,
        send_at timestamptz not null,
        status text not null check (status in ('PENDING', 'SENT', 'FAILED', 'CANCELLED')),
        message_id uuid unique,
        failure_reason text,
        fired_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check ((status = 'SENT') = (message_id is not null)),
        check ((status = 'FAILED') = (failure_reason is not null))
      );
      create index scheduled_messages_due on scheduled_messages (send_at, id) where status = 'PENDING';
      create index scheduled_messages_by_sender on scheduled_messages (sender_id, status, send_at, id);

      create table reminders (
        id uuid primary key,
        owner_id uuid not null references accounts (id),
        -- the owner's reminder room and its bot, fixed at creation
        room_id uuid not null references rooms (id),
        bot_id uuid not null references accounts (id),
        text text not null,
        kind text not null check (kind in ('ONE_TIME', 'RECURRING')),
        remind_at timestamptz,
        recurrence jsonb,
        status text not null check (status in ('ACTIVE', 'DONE', 'CANCELLED')),
        next_fire_at timestamptz,
        last_fired_at timestamptz,
        fire_count integer not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check ((kind = 'ONE_TIME') = (remind_at is not null) and (kind = 'RECURRING') = (recurrence is not null)),
        check ((status = 'ACTIVE') = (next_fire_at is not null))
      );
      create index reminders_due on reminders (next_fire_at, id) where status = 'ACTIVE';
      create index reminders_by_owner on reminders (owner_id, next_fire_at, id) where status = 'ACTIVE';

      -- One row per fired occurrence: its key is what makes an occurrence post at most once.
      create table reminder_occurrences (
        reminder_id uuid not null references reminders (id),
        occurrence_at timestamptz not null,
        message_id uuid unique,
        skipped_reason text,
        fired_at timestamptz not null,
        primary key (reminder_id, occurrence_at)
      );
    `);
  }
}
