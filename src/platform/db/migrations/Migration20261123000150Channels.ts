import { Migration } from '@mikro-orm/migrations';

/**
 * Channels (explicit or rule-based membership, rooms attached by rooms.channel_id), contact requests between
 * accounts of any tenant, and broadcasts with a per-account read mark.
 */
export class Migration20261123000150Channels extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table channels (
        id uuid primary key,
        -- a channel belongs to the module and customer of its creator; rules match only their accounts
        module_code text not null,
        customer_account_id text not null,
        name text not null,
        description text,
        membership_mode text not null,
        rule jsonb,
        member_count integer not null default 0,
        created_by uuid not null references accounts (id),
        created_at timestamptz not null,
        deleted_at timestamptz
      );
      -- the RULE channels an account's metadata change re-evaluates
      create index channels_rule_tenant on channels (module_code, customer_account_id, id)
        where membership_mode = 'RULE' and deleted_at is null;

      create table channel_members (
        channel_id uuid not null references channels (id) on delete cascade,
        account_id uuid not null references accounts (id),
        role text not null,
        pinned boolean not null default false,
        joined_at timestamptz not null,
        primary key (channel_id, account_id)
      );
      create index channel_members_by_account on channel_members (account_id, channel_id);
      create index channel_members_joined on channel_members (channel_id, joined_at, account_id);

      create index rooms_channel on rooms (channel_id) where channel_id is not null and deleted_at is null;

      create table contact_requests (
        id uuid primary key,
        requester_id uuid not null references accounts (id),
        invitee_id uuid not null references accounts (id),
        status text not null,
        created_at timestamptz not null,
        accepted_at timestamptz,
        -- one request per direction: a repeat finds the first
        unique (requester_id, invitee_id)
      );
      create index contact_requests_incoming on contact_requests (invitee_id, created_at desc, id desc) where status = 'PENDING';
      create index contact_requests_outgoing on contact_requests (requester_id, created_at desc, id desc) where status = 'PENDING';

      create table broadcasts (
        id uuid primary key,
        -- feed order and read marks; creations are serialised so that commit order is seq order
        seq bigint generated always as identity unique,
        title text,
        text text not null,
        -- null: every module
        modules text[],
        created_by uuid not null references accounts (id),
        created_at timestamptz not null
      );

      create table broadcast_reads (
        account_id uuid primary key references accounts (id),
        last_read_seq bigint not null,
        updated_at timestamptz not null
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table broadcast_reads, broadcasts, contact_requests, channel_members, channels;
      drop index rooms_channel;
    `);
  }
}
