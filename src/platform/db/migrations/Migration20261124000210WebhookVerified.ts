import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a webhook's URL has ever answered 2xx (the save ping, a test or a delivery): resume returns a Paused webhook
 * to Active only when it has, and to Unverified otherwise. Webhooks that are not Unverified now are taken as verified.
 * Webhooks may also be created by people (the workspace's Owner and Admin with their bearer JWT): created_via
 * 'account', with the account in created_by_account.
 */
export class Migration20261124000210WebhookVerified extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table webhooks add column verified boolean not null default false;
      update webhooks set verified = true where status <> 'Unverified';
      alter table webhooks add column created_by_account uuid;
      alter table webhooks drop constraint webhooks_created_via_check;
      alter table webhooks add constraint webhooks_created_via_check check (created_via in ('svc_key', 'api_key', 'account'));
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      delete from webhooks where created_via = 'account';
      alter table webhooks drop constraint webhooks_created_via_check;
      alter table webhooks add constraint webhooks_created_via_check check (created_via in ('svc_key', 'api_key'));
      alter table webhooks drop column created_by_account, drop column verified;
    `);
  }
}
