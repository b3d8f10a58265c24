import { Migration } from '@mikro-orm/migrations';

/**
 * The formatting of a bot's text or caption (bold, links, code, quotes, ...): spans of the text the Bot API's
 * parse_mode or explicit entities gave, kept apart from the mention entities the chat finds itself. Null when none.
 */
export class Migration20261129000300MessageFormatting extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table messages add column formatting jsonb;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table messages drop column formatting;');
  }
}
