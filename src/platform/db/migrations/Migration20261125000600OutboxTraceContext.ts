import { Migration } from '@mikro-orm/migrations';

/**
 * The W3C traceparent of the span that wrote an outbox row, so that its consumers' spans link to the producer. It
 * defaults to the connection's platform.traceparent setting, which the tracing instrumentation sets before an
 * insert while tracing is on (NULL otherwise), so no insert names the column.
 */
export class Migration20261125000600OutboxTraceContext extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table outbox add column trace_context text default nullif(current_setting('platform.traceparent', true), '');");
  }

  override async down(): Promise<void> {
    this.addSql('alter table outbox drop column trace_context;');
  }
}
