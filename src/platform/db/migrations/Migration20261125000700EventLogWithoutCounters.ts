import { Migration } from '@mikro-orm/migrations';

/**
 * An account's newest seq is the newest row of its log (docs/adr/0123): the relay reads it with one index probe per
 * recipient instead of updating a counter row for each, which halved what a broadcast to every account writes. The
 * pruning keeps each account's newest row. An account whose log was pruned past its counter gets a marker row at the
 * counter's value (event 0, which no event_log row has: it reads as pruned), so that no seq is ever handed out twice.
 */
export class Migration20261125000700EventLogWithoutCounters extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      insert into user_events (account_id, seq, event_id)
        select c.account_id, c.last_seq, 0 from user_event_counters c
        where c.last_seq > coalesce((select max(u.seq) from user_events u where u.account_id = c.account_id), 0);
      drop table user_event_counters;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create table user_event_counters (
        account_id uuid primary key,
        last_seq bigint not null
      );
      insert into user_event_counters (account_id, last_seq) select account_id, max(seq) from user_events group by account_id;
      delete from user_events where event_id = 0;
    `);
  }
}
