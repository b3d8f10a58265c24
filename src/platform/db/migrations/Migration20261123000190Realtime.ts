import { Migration } from '@mikro-orm/migrations';

/**
 * The per-account event log realtime delivers from: every relayed event that reaches someone is kept once
 * (event_log, keyed by its outbox id) and numbered per recipient (user_events: seq grows by one per event of that
 * account, the counter in user_event_counters). Rows older than the retention window are pruned.
 */
export class Migration20261123000190Realtime extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table event_log (
        id bigint primary key,
        topic text not null,
        payload jsonb not null,
        created_at timestamptz not null
      );
      create index event_log_created on event_log (created_at);

      create table user_event_counters (
        account_id uuid primary key,
        last_seq bigint not null
      );

      create table user_events (
        account_id uuid not null,
        seq bigint not null,
        event_id bigint not null,
        primary key (account_id, seq)
      );
      -- pruning walks the log by event id
      create index user_events_event on user_events (event_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table user_events, user_event_counters, event_log;');
  }
}
