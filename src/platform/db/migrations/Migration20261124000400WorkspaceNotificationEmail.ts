import { Migration } from '@mikro-orm/migrations';

/**
 * A workspace's notification address: its warning mail (a webhook paused after failed deliveries) goes there, and
 * to the Owner's account e-mail while it is unset.
 */
export class Migration20261124000400WorkspaceNotificationEmail extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table workspaces add column notification_email text;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table workspaces drop column notification_email;');
  }
}
