import { Migration } from '@mikro-orm/migrations';

/**
 * The contact lifecycle: a request may end DECLINED (by the invitee), CANCELLED (by the requester) or, once ACCEPTED,
 * REMOVED (by either side). Ended requests stay as history, so the one-request-per-direction rule holds only for
 * live ones (PENDING, ACCEPTED) and a new invitation after an ended one is a new request. `ended_at` is when it ended.
 */
export class Migration20261124000210ContactLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table contact_requests add column ended_at timestamptz;
      alter table contact_requests drop constraint contact_requests_requester_id_invitee_id_key;
      create unique index contact_requests_live on contact_requests (requester_id, invitee_id) where status in ('PENDING', 'ACCEPTED');
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      delete from contact_requests where status not in ('PENDING', 'ACCEPTED');
      drop index contact_requests_live;
      alter table contact_requests add constraint contact_requests_requester_id_invitee_id_key unique (requester_id, invitee_id);
      alter table contact_requests drop column ended_at;
    `);
  }
}
