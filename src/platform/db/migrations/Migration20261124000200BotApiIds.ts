import { Migration } from '@mikro-orm/migrations';

/**
 * The Bot API's integer ids: every account and every room gets a number from one shared sequence, so a number
 * names exactly one of them (a private chat's id can never be read as some user's id). Numbers stay below 2^53
 * (JavaScript's safe integers, as Telegram promises its ids) and never change. Existing rows are numbered when
 * the column is added. Bots also keep their command menu (setMyCommands)
 * and the certificate uploaded with setWebhook.
 */
export class Migration20261124000200BotApiIds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create sequence bot_api_ids as bigint minvalue 1 maxvalue 9007199254740991 start with 1000001;
      alter table accounts add column bot_api_id bigint not null default nextval('bot_api_ids');
      alter table rooms add column bot_api_id bigint not null default nextval('bot_api_ids');
      create unique index accounts_bot_api_id on accounts (bot_api_id);
      create unique index rooms_bot_api_id on rooms (bot_api_id);
      -- the bot's command menu (setMyCommands), [{command, description}]
      alter table bots add column commands jsonb not null default '[]';
      -- the receiver's certificate (PEM) uploaded with setWebhook, trusted for its deliveries
      alter table bots add column webhook_certificate text;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table bots drop column webhook_certificate, drop column commands; alter table rooms drop column bot_api_id; alter table accounts drop column bot_api_id; drop sequence bot_api_ids;',
    );
  }
}
