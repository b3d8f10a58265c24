import { Migration } from '@mikro-orm/migrations';

/**
 * An image upload's size in pixels, read from its header when the upload completes: a message shows it, and a bot
 * receives a user's picture as a photo, which Telegram's PhotoSize cannot describe without it.
 */
export class Migration20261129000800UploadImageSizes extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table uploads add column width integer, add column height integer;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table uploads drop column width, drop column height;');
  }
}
