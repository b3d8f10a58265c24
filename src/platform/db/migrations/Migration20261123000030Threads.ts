import { Migration } from '@mikro-orm/migrations';

/**
 * Threads: the room's thread list reads active roots newest reply first from an index, and a read mark kept
 * for someone who neither follows nor unfollowed has its own state (NONE), so that it never blocks an
 * automatic follow the way an explicit UNFOLLOWED does.
 */
export class Migration20261123000030Threads extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- GET /rooms/{roomId}/threads: one index range scan per page, keyset on (last_reply_at, id)
      create index messages_active_threads on messages (room_id, last_reply_at desc, id desc)
        where reply_count > 0 and thread_root_id is null;

      alter table thread_follows add constraint thread_follows_state
        check (state in ('FOLLOWING', 'UNFOLLOWED', 'NONE'));
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table thread_follows drop constraint thread_follows_state;
      drop index messages_active_threads;
    `);
  }
}
