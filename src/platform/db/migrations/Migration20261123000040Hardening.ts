import { Migration } from '@mikro-orm/migrations';

/** Secrets every node must share (the cursor HMAC key when CURSOR_SECRET is not configured). */
export class Migration20261123000040Hardening extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table platform_secrets (
        name text primary key,
        value text not null,
        created_at timestamptz not null default now()
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table platform_secrets;');
  }
}
