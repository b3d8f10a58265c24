import { Migration } from '@mikro-orm/migrations';

/**
 * Read receipts: when each member's read mark last moved (the readAt of a receipt), each account's choice to share
 * its receipts (no row: shared), and the message.read events owed to senders, one per room and sender per 2 s
 * window (docs/adr/0154-read-receipts.md).
 */
export class Migration20261130000100Receipts extends Migration {
  override name = 'Migration20261130000100Receipts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "receipt_settings" ("account_id" uuid not null, "share_read_receipts" boolean not null, "updated_at" timestamptz not null, primary key ("account_id"));`,
    );

    this.addSql(
      `create table "read_notices" ("room_id" uuid not null, "sender_id" uuid not null, "due_at" timestamptz not null, primary key ("room_id", "sender_id"));`,
    );
    this.addSql(`create index "read_notices_due" on "read_notices" ("due_at");`);

    this.addSql(`alter table "room_members" add "last_read_at" timestamptz null;`);

    this.addSql(
      `alter table "receipt_settings" add constraint "receipt_settings_account_id_fkey" foreign key ("account_id") references "accounts" ("id") on update no action on delete cascade;`,
    );

    this.addSql(
      `alter table "read_notices" add constraint "read_notices_room_id_fkey" foreign key ("room_id") references "rooms" ("id") on update no action on delete cascade;`,
    );
    this.addSql(
      `alter table "read_notices" add constraint "read_notices_sender_id_fkey" foreign key ("sender_id") references "accounts" ("id") on update no action on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "receipt_settings" cascade;`);
    this.addSql(`drop table if exists "read_notices" cascade;`);

    this.addSql(`alter table "room_members" drop column "last_read_at";`);
  }
}
