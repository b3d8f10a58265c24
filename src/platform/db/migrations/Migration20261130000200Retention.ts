import { Migration } from '@mikro-orm/migrations';

/**
 * Message retention (docs/adr/0155-message-retention.md): a customer's default and a room's own, in days; the index the
 * expiry job selects a room's oldest messages by; and an index on message_id for each table whose rows the deletion
 * of a message removes by cascade, so that a batch of deletions does not scan those tables once per message.
 */
export class Migration20261130000200Retention extends Migration {
  override up(): void | Promise<void> {
    this.addSql(
      `create table "customer_retention" ("module_code" text not null, "customer_account_id" text not null, "days" int not null, "updated_at" timestamptz not null, primary key ("module_code", "customer_account_id"));`,
    );
    this.addSql(
      `create table "room_retention" ("room_id" uuid not null, "days" int not null, "updated_at" timestamptz not null, primary key ("room_id"));`,
    );
    this.addSql(`create index "messages_room_created" on "messages" ("room_id", "created_at");`);
    this.addSql(`create index "personal_pins_message" on "personal_pins" ("message_id");`);
    this.addSql(`create index "message_hides_message" on "message_hides" ("message_id");`);
    this.addSql(`create index "mentions_message" on "mentions" ("message_id");`);
    this.addSql(`create index "room_pins_message" on "room_pins" ("message_id");`);
    this.addSql(`create index "saved_messages_message" on "saved_messages" ("message_id");`);
    this.addSql(
      `alter table "customer_retention" add constraint "customer_retention_days_check" check ((((days >= 1) AND (days <= 3650))));`,
    );
    this.addSql(
      `alter table "room_retention" add constraint "room_retention_room_id_fkey" foreign key ("room_id") references "rooms" ("id") on update no action on delete cascade;`,
    );
    this.addSql(`alter table "room_retention" add constraint "room_retention_days_check" check ((((days >= 1) AND (days <= 3650))));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "customer_retention" cascade;`);
    this.addSql(`drop table if exists "room_retention" cascade;`);
    for (const index of [
      'mentions_message',
      'message_hides_message',
      'messages_room_created',
      'personal_pins_message',
      'room_pins_message',
      'saved_messages_message',
    ]) {
      this.addSql(`drop index "${index}";`);
    }
  }
}
