import { Migration } from '@mikro-orm/migrations';

/**
 * Account erasures (src/chat/erasure): one row per erased account, the audit record and the job's state; the unique
 * account makes a repeated request find the first one's job (docs/adr/0156-account-erasure.md).
 */
export class Migration20261130000300Erasures extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "erasures" ("id" uuid not null, "account_id" uuid not null, "erased_by" uuid not null, "requested_at" timestamptz not null, "messages" text not null, "state" text not null, "step" text null, "cursor" uuid null, "lease_until" timestamptz null, "finished_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "erasures_pending" on "erasures" ("requested_at") where (state in ('queued', 'running'));`);
    this.addSql(`alter table "erasures" add constraint "erasures_account" unique ("account_id");`);
    this.addSql(
      `alter table "erasures" add constraint "erasures_account_id_fkey" foreign key ("account_id") references "accounts" ("id") on update no action on delete no action;`,
    );
    this.addSql(
      `alter table "erasures" add constraint "erasures_erased_by_fkey" foreign key ("erased_by") references "accounts" ("id") on update no action on delete no action;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "erasures" cascade;`);
  }
}
