import { Migration } from '@mikro-orm/migrations';

/**
 * Personal exports (src/chat/exports): one row per export job, its state and the worker's lease. The partial unique
 * index allows one queued or running export per account; the archive's bytes are in the media store under the row's id.
 */
export class Migration20261130000400AccountExports extends Migration {
  override name = 'Migration20261130000400AccountExports';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "account_exports" ("id" uuid not null, "account_id" uuid not null, "state" text not null, "created_at" timestamptz not null, "lease_until" timestamptz null, "attempts" int not null default 0, "completed_at" timestamptz null, "size" bigint null, "error" text null, primary key ("id"));`,
    );
    this.addSql(
      `create index "account_exports_pending" on "account_exports" ("created_at") where (state = ANY (ARRAY['queued'::text, 'running'::text]));`,
    );
    this.addSql(`create index "account_exports_created" on "account_exports" ("created_at");`);
    this.addSql(
      `create unique index "account_exports_one_running" on "account_exports" ("account_id") where (state = ANY (ARRAY['queued'::text, 'running'::text]));`,
    );

    this.addSql(
      `alter table "account_exports" add constraint "account_exports_account_id_fkey" foreign key ("account_id") references "accounts" ("id") on update no action on delete no action;`,
    );
    this.addSql(
      `alter table "account_exports" add constraint "account_exports_state_check" check (((state = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text]))));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "account_exports" cascade;`);
  }
}
