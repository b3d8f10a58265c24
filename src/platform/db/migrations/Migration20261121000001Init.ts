import { Migration } from '@mikro-orm/migrations';

/** Identity, rooms, messages and the outbox of the first chat slice. */
export class Migration20261121000001Init extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table modules (
        code text primary key,
        name text not null,
        created_at timestamptz not null default now()
      );

      create table customer_keys (
        id uuid primary key,
        module_code text not null references modules (code),
        customer_account_id text not null,
        kid text not null,
        algorithm text not null,
        public_key_pem text not null,
        fingerprint text not null,
        created_at timestamptz not null default now(),
        unique (module_code, customer_account_id, kid)
      );

      create table accounts (
        id uuid primary key,
        module_code text not null references modules (code),
        customer_account_id text not null,
        display_name text not null,
        avatar_url text,
        account_type text not null,
        status text not null,
        team text,
        department text,
        role text,
        tags text[] not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index accounts_customer on accounts (customer_account_id, module_code);

      create table rooms (
        id uuid primary key,
        type text not null,
        name text,
        description text,
        add_member_policy text not null,
        channel_id uuid,
        created_by uuid not null references accounts (id),
        member_count integer not null default 0,
        last_seq bigint not null default 0,
        created_at timestamptz not null,
        last_activity_at timestamptz not null,
        -- get-or-create rooms (1-1, saved messages, reminders) are unique per key
        singleton_key text unique
      );

      create table room_members (
        room_id uuid not null references rooms (id) on delete cascade,
        account_id uuid not null references accounts (id),
        role text not null,
        joined_at timestamptz not null,
        archived boolean not null default false,
        muted_until timestamptz,
        notification_level text not null default 'ALL',
        pinned boolean not null default false,
        last_read_seq bigint not null default 0,
        primary key (room_id, account_id)
      );
      create index room_members_by_account on room_members (account_id, archived);

      create table messages (
        id uuid primary key,
        room_id uuid not null references rooms (id) on delete cascade,
        seq bigint not null,
        sender_id uuid not null references accounts (id),
        type text not null,
        text text,
        client_message_id text,
        thread_root_id uuid,
        created_at timestamptz not null,
        edited_at timestamptz,
        recalled_at timestamptz
      );
      -- keyset scroll: one index seek per page whatever the room size
      create unique index messages_room_seq on messages (room_id, seq);
      create index messages_room_top_level on messages (room_id, seq) where thread_root_id is null;
      create unique index messages_client_id on messages (room_id, sender_id, client_message_id)
        where client_message_id is not null;

      create table outbox (
        id bigint generated always as identity primary key,
        topic text not null,
        payload jsonb not null,
        created_at timestamptz not null default now(),
        published_at timestamptz
      );
      create index outbox_unpublished on outbox (id) where published_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table outbox, messages, room_members, rooms, accounts, customer_keys, modules cascade;');
  }
}
