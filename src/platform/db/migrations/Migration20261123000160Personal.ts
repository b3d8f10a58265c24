import { Migration } from '@mikro-orm/migrations';

/**
 * Personal organisation (drafts, labels on rooms, saved messages) and polls. A member's drafts, room labels and
 * saved cards of a room end with the membership: one statement-level trigger removes them whichever path deletes
 * the room_members rows (leave, room deletion, a rule channel dropping the member), so counts such as a label's
 * roomCount stay exact without every such path knowing about them.
 */
export class Migration20261123000160Personal extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table drafts (
        account_id uuid not null references accounts (id),
        room_id uuid not null references rooms (id) on delete cascade,
        text text not null,
        updated_at timestamptz not null,
        primary key (account_id, room_id)
      );

      create table labels (
        id uuid primary key,
        owner_id uuid not null references accounts (id),
        name text not null,
        color text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      -- one name per owner, ignoring letter case
      create unique index labels_owner_name on labels (owner_id, lower(name));

      create table room_labels (
        label_id uuid not null references labels (id) on delete cascade,
        room_id uuid not null references rooms (id) on delete cascade,
        -- the label's owner, so the room list filters and the membership trigger use one index
        account_id uuid not null,
        created_at timestamptz not null,
        primary key (label_id, room_id)
      );
      create index room_labels_by_room on room_labels (account_id, room_id);

      -- savedId is a plain string in the interface; the service issues uuids
      create table saved_messages (
        id text primary key,
        account_id uuid not null references accounts (id),
        room_id uuid not null,
        message_id uuid not null references messages (id) on delete cascade,
        note text,
        saved_at timestamptz not null,
        updated_at timestamptz not null,
        unique (account_id, message_id)
      );
      create index saved_messages_feed on saved_messages (account_id, saved_at desc, id desc);
      create index saved_messages_room on saved_messages (account_id, room_id);

      create function end_personal_rows_with_membership() returns trigger language plpgsql as $$
      begin
        delete from drafts d using gone g where d.account_id = g.account_id and d.room_id = g.room_id;
        delete from room_labels l using gone g where l.account_id = g.account_id and l.room_id = g.room_id;
        delete from saved_messages s using gone g where s.account_id = g.account_id and s.room_id = g.room_id;
        return null;
      end $$;
      create trigger room_members_end_personal_rows after delete on room_members
        referencing old table as gone for each statement execute function end_personal_rows_with_membership();

      create table polls (
        id uuid primary key,
        room_id uuid not null references rooms (id) on delete cascade,
        message_id uuid not null references messages (id) on delete cascade,
        creator_id uuid not null references accounts (id),
        question text not null,
        multiple_choice boolean not null,
        created_at timestamptz not null,
        closed_at timestamptz,
        closed_by uuid
      );
      create unique index polls_message on polls (message_id);

      create table poll_options (
        id uuid primary key,
        poll_id uuid not null references polls (id) on delete cascade,
        position smallint not null,
        text text not null,
        unique (poll_id, position)
      );

      -- one ballot per voter and poll: a vote replaces the row's whole option set in one upsert, so concurrent
      -- votes of one account leave exactly one set, and counts are always a recount of these rows
      create table poll_ballots (
        poll_id uuid not null references polls (id) on delete cascade,
        account_id uuid not null references accounts (id),
        option_ids uuid[] not null,
        voted_at timestamptz not null,
        primary key (poll_id, account_id)
      );

      -- the poll a POLL message announces
      alter table messages add column poll_id uuid;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table messages drop column poll_id;
      drop table poll_ballots, poll_options, polls;
      drop trigger room_members_end_personal_rows on room_members;
      drop function end_personal_rows_with_membership();
      drop table saved_messages, room_labels, labels, drafts;
    `);
  }
}
