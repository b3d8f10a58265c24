import { Migration } from '@mikro-orm/migrations';

/**
 * Message search: a GIN index over the words of each message's text, with the language-neutral `simple`
 * configuration (lower-cased words, no stemming, no stop words: the same in every language). An expression index,
 * not a stored column: sends write no extra column, and recalled messages (never searched) leave the index.
 */
export class Migration20261124000300MessageSearch extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index messages_search on messages using gin (to_tsvector('simple'::regconfig, text)) where text is not null and recalled_at is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index messages_search;');
  }
}
