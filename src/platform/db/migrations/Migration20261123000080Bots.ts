import { Migration } from '@mikro-orm/migrations';

/**
 * Bots: the bot (its BOT account, the hash of its token, its webhook), per-room read-all switches, the updates
 * waiting for the bot (kept 24 hours), button presses, and the inline keyboard stored on a bot's message.
 */
export class Migration20261123000080Bots extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table bots (
        id uuid primary key,
        account_id uuid not null unique references accounts (id),
        module_code text not null,
        customer_account_id text not null,
        username text not null,
        description text,
        -- sha256 of the token: the token itself is never stored
        token_hash bytea not null unique,
        -- the newest update_id handed out; updates of one bot are numbered under this row's lock
        last_update_id bigint not null default 0,
        -- update kinds produced for the bot (null: all), set by getUpdates or setWebhook as in Telegram
        allowed_updates text[],
        webhook_url text,
        -- sent back in X-Telegram-Bot-Api-Secret-Token, so it is kept as given
        webhook_secret text,
        webhook_max_connections integer,
        webhook_last_error_at timestamptz,
        webhook_last_error_message text,
        -- consecutive failed deliveries and when the next attempt may run
        webhook_failures integer not null default 0,
        webhook_retry_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create unique index bots_username on bots (lower(username)) where deleted_at is null;
      create index bots_tenant on bots (module_code, customer_account_id, created_at, id) where deleted_at is null;
      create index bots_listed on bots (created_at, id) where deleted_at is null;

      create table bot_room_settings (
        bot_id uuid not null references bots (id),
        room_id uuid not null references rooms (id) on delete cascade,
        read_all boolean not null,
        updated_at timestamptz not null,
        primary key (bot_id, room_id)
      );

      create table bot_updates (
        bot_id uuid not null references bots (id),
        update_id bigint not null,
        id uuid not null unique,
        kind text not null,
        payload jsonb not null,
        created_at timestamptz not null,
        primary key (bot_id, update_id)
      );
      create index bot_updates_created on bot_updates (created_at);

      create table bot_callback_queries (
        id uuid primary key,
        bot_id uuid not null references bots (id),
        room_id uuid not null references rooms (id) on delete cascade,
        message_id uuid not null references messages (id) on delete cascade,
        account_id uuid not null references accounts (id),
        data text not null,
        created_at timestamptz not null,
        answered_at timestamptz
      );
      create index bot_callback_queries_created on bot_callback_queries (created_at);

      alter table messages add column inline_keyboard jsonb;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('alter table messages drop column inline_keyboard; drop table bot_callback_queries, bot_updates, bot_room_settings, bots;');
  }
}
