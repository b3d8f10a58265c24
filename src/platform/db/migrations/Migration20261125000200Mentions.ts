import { Migration } from '@mikro-orm/migrations';

/**
 * Usernames and mentions. A username is unique per customer whatever its case (the index is on its lower-cased
 * form). A message keeps the mention entities found in its text; each mention of an account is a row of mentions,
 * the mentioned account's inbox, read when read_at is set or when the account's read mark of the room passes it.
 */
export class Migration20261125000200Mentions extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table accounts add column username text;');
    this.addSql('create unique index accounts_username on accounts (customer_account_id, lower(username)) where username is not null;');
    this.addSql('alter table messages add column entities jsonb;');
    this.addSql(`create table mentions (
      account_id uuid not null constraint mentions_account_id_fkey references accounts (id),
      message_id uuid not null constraint mentions_message_id_fkey references messages (id) on delete cascade,
      room_id uuid not null constraint mentions_room_id_fkey references rooms (id) on delete cascade,
      seq bigint not null,
      created_at timestamptz not null,
      read_at timestamptz null,
      constraint mentions_pkey primary key (account_id, message_id));`);
    this.addSql('create index mentions_inbox on mentions (account_id, created_at desc, message_id desc);');
    this.addSql('create index mentions_unread on mentions (account_id, room_id, seq) where read_at is null;');
  }

  override async down(): Promise<void> {
    this.addSql('drop table mentions;');
    this.addSql('alter table messages drop column entities;');
    this.addSql('drop index accounts_username;');
    this.addSql('alter table accounts drop column username;');
  }
}
