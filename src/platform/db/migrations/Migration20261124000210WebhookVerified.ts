import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a webhook's URL has ever answered 2xx (the save ping, a test or a delivery): resume returns a Paused webhook
 * to Active only when it has, and to Unverified otherwise. Webhooks that are not Unverified now are taken as verified.
 */
export class Migration20261124000210WebhookVerified extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table webhooks add column verified boolean not null default false;
      update webhooks set verified = true where status <> 'Unverified';
    `);
  }

  override async down(): Promise<void> {
    this.addSql('alter table webhooks drop column verified;');
  }
}
