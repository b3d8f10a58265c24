import { Migration } from '@mikro-orm/migrations';

/**
 * Room list and member pages. messages_room_top_level gains the columns the unread count reads (sender, recall,
 * id for the hidden-message anti-join), so counting a room's unread messages is an index-only range scan; its keys
 * and predicate are unchanged, so top-level scrolls use it as before. Members page in joining order and pending
 * join requests oldest first, each by an index range.
 */
export class Migration20261123000010Rooms extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      drop index messages_room_top_level;
      create index messages_room_top_level on messages (room_id, seq) include (sender_id, recalled_at, id) where thread_root_id is null;
      create index room_members_joined on room_members (room_id, joined_at, account_id);
      create index join_requests_pending_list on join_requests (room_id, id) where status = 'PENDING';
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index join_requests_pending_list;
      drop index room_members_joined;
      drop index messages_room_top_level;
      create index messages_room_top_level on messages (room_id, seq) where thread_root_id is null;
    `);
  }
}
