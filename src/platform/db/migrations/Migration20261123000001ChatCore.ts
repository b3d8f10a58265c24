import { Migration } from '@mikro-orm/migrations';

/**
 * The rest of the chat core: deleted rooms, snap-to-top, join requests, hidden messages, reactions, pins,
 * forwarded copies and threads (counters on the root, per-user follow state and read marks).
 */
export class Migration20261123000001ChatCore extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table rooms
        add column deleted_at timestamptz,
        add column snap_message_id uuid,
        add column snapped_by uuid,
        add column snapped_at timestamptz;

      alter table room_members add column pinned_at timestamptz;

      alter table messages
        add column forwarded_from_room_id uuid,
        add column forwarded_from_message_id uuid,
        add column reply_count integer not null default 0,
        add column last_reply_at timestamptz,
        add column last_reply_id uuid;
      -- thread pages: one index range scan per page whatever the room size
      create index messages_thread on messages (thread_root_id, seq) where thread_root_id is not null;

      create table join_requests (
        id uuid primary key,
        room_id uuid not null references rooms (id) on delete cascade,
        account_id uuid not null references accounts (id),
        requested_by uuid not null references accounts (id),
        status text not null,
        created_at timestamptz not null,
        resolved_at timestamptz,
        resolved_by uuid
      );
      -- one pending request per person and room: a repeat finds the first
      create unique index join_requests_pending on join_requests (room_id, account_id) where status = 'PENDING';

      create table message_hides (
        account_id uuid not null references accounts (id),
        message_id uuid not null references messages (id) on delete cascade,
        room_id uuid not null,
        hidden_at timestamptz not null,
        primary key (account_id, message_id)
      );
      create index message_hides_room on message_hides (account_id, room_id);

      create table message_reactions (
        message_id uuid not null references messages (id) on delete cascade,
        emoji text not null,
        account_id uuid not null references accounts (id),
        created_at timestamptz not null,
        primary key (message_id, emoji, account_id)
      );

      create table room_pins (
        room_id uuid not null references rooms (id) on delete cascade,
        message_id uuid not null references messages (id) on delete cascade,
        pinned_by uuid not null references accounts (id),
        pinned_at timestamptz not null,
        primary key (room_id, message_id)
      );

      create table personal_pins (
        account_id uuid not null references accounts (id),
        message_id uuid not null references messages (id) on delete cascade,
        room_id uuid not null,
        pinned_at timestamptz not null,
        primary key (account_id, message_id)
      );
      create index personal_pins_room on personal_pins (account_id, room_id);

      create table thread_follows (
        root_id uuid not null references messages (id) on delete cascade,
        account_id uuid not null references accounts (id),
        room_id uuid not null,
        -- FOLLOWING or UNFOLLOWED; an UNFOLLOWED row is never turned back automatically
        state text not null,
        -- room sequence number of the last reply read; replies with a higher seq are unread
        last_read_seq bigint not null default 0,
        updated_at timestamptz not null,
        primary key (root_id, account_id)
      );
      create index thread_follows_following on thread_follows (account_id) where state = 'FOLLOWING';
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table thread_follows, personal_pins, room_pins, message_reactions, message_hides, join_requests;
      drop index messages_thread;
      alter table messages drop column forwarded_from_room_id, drop column forwarded_from_message_id,
        drop column reply_count, drop column last_reply_at, drop column last_reply_id;
      alter table room_members drop column pinned_at;
      alter table rooms drop column deleted_at, drop column snap_message_id, drop column snapped_by, drop column snapped_at;
    `);
  }
}
