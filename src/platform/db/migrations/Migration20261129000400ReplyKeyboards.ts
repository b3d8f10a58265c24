import { Migration } from '@mikro-orm/migrations';

/**
 * A bot's reply keyboard, its removal or a forced reply, kept on the message that carries it. The partial index
 * finds a room's latest such message (a member's current keyboard) without reading the room's other messages.
 */
export class Migration20261129000400ReplyKeyboards extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table messages add column reply_markup jsonb;
      create index messages_reply_markup on messages (room_id, seq desc) where reply_markup is not null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop index messages_reply_markup; alter table messages drop column reply_markup;');
  }
}
