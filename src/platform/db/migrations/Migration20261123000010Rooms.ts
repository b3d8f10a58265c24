import { Migration } from '@mikro-orm/migrations';

/** Keyset pages of a room's members (joining order) and of its pending join requests (oldest first). */
export class Migration20261123000010Rooms extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create index room_members_joined on room_members (room_id, joined_at, account_id);
      create index join_requests_pending_list on join_requests (room_id, id) where status = 'PENDING';
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop index join_requests_pending_list; drop index room_members_joined;');
  }
}
