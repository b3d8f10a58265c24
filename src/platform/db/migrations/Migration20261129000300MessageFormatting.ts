import { Migration } from '@mikro-orm/migrations';

/**
 * The formatting of a bot's text or caption (bold, links, code, quotes, ...): spans of the text the Bot API's
 * parse_mode or explicit entities gave, kept apart from the mention entities the chat finds itself. Null when none.
 * A quiz's explanation keeps its own.
 */
export class Migration20261129000300MessageFormatting extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table messages add column formatting jsonb;');
    this.addSql('alter table bot_polls add column explanation_entities jsonb;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table bot_polls drop column explanation_entities;');
    this.addSql('alter table messages drop column formatting;');
  }
}
