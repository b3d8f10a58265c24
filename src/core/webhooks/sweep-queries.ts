// The statements of the sweeper and of the pause notices: deliveries whose job may have been lost, events left
// unpublished, the pruned delivery log, and the lease, mail details and clearing of a paused webhook's notice.
import { sql } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { coreDb } from '../tables.js';

/** Deliveries whose job may have been lost: pending past due by a sweep, or sending past their lease. */
export async function lostDeliveries(db: Runner, overdue: Date, now: Date, limit: number) {
  return rows(
    db,
    coreDb
      .selectFrom('webhook_deliveries')
      .select(['id', 'round', 'attempt_count', 'status', 'next_attempt_at'])
      // next_attempt_at <= overdue holds only for a set time.
      .$narrowType<{ next_attempt_at: Date }>()
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', overdue)
      .where((eb) => eb.or([eb('status', '=', 'pending'), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit),
  );
}

/** Whether events have waited unpublished in the outbox longer than `ms`. */
export async function eventsWaitingLongerThan(db: Runner, ms: number): Promise<boolean> {
  const waiting = await firstRow(
    db,
    coreDb
      .selectFrom('outbox')
      .select(sql<number>`1`.as('one'))
      .where('published_at', 'is', null)
      .where('created_at', '<', sql<Date>`now() - ${ms} * interval '1 millisecond'`)
      .limit(1),
  );
  return waiting !== undefined;
}

/** Deletes the webhook's finished deliveries beyond the `keep` most recent; unfinished ones always stay. */
export async function pruneDeliveries(db: Runner, webhookId: string, keep: number): Promise<number> {
  return affected(
    db,
    coreDb
      .deleteFrom('webhook_deliveries')
      .where('webhook_id', '=', webhookId)
      .where('status', 'in', ['succeeded', 'failed', 'cancelled'])
      .where('id', '<', (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('webhook_id', '=', webhookId)
          .orderBy('id', 'desc')
          .offset(keep - 1)
          .limit(1),
      ),
  );
}

/** A webhook's notice, leased until `until` if it is pending and no other node holds it, with where it goes. */
export async function leaseNotice(db: Runner, webhookId: string, now: Date, until: Date) {
  return firstRow(
    db,
    coreDb
      .with('leased', (qb) =>
        qb
          .updateTable('webhooks')
          .set({ notice_lease_until: until })
          .where('id', '=', webhookId)
          .where((eb) =>
            eb.and([eb.ref('notice_pending'), eb.or([eb('notice_lease_until', 'is', null), eb('notice_lease_until', '<', now)])]),
          )
          .returning(['id', 'name', 'url', 'workspace_id', 'environment', 'consecutive_failures', 'paused_at']),
      )
      .selectFrom('leased as l')
      .innerJoin('workspaces as ws', 'ws.id', 'l.workspace_id')
      .innerJoin('accounts as a', 'a.id', 'ws.owner_id')
      .selectAll('l')
      .select(['ws.name as workspace_name', 'a.email as owner_email', 'ws.notification_email', 'a.display_name as owner_name']),
  );
}

/** The error of the webhook's latest failed delivery. */
export async function lastFailure(db: Runner, webhookId: string) {
  return firstRow(
    db,
    coreDb
      .selectFrom('webhook_deliveries')
      .select('error')
      .where('webhook_id', '=', webhookId)
      .where('status', '=', 'failed')
      .orderBy('id', 'desc')
      .limit(1),
  );
}

export async function clearNotice(db: Runner, webhookId: string): Promise<number> {
  return affected(db, coreDb.updateTable('webhooks').set({ notice_pending: false, notice_lease_until: null }).where('id', '=', webhookId));
}

/** Up to 100 webhooks whose notice is pending and not leased. */
export async function pendingNotices(db: Runner, now: Date) {
  return rows(
    db,
    coreDb
      .selectFrom('webhooks')
      .select('id')
      .where((eb) => eb.and([eb.ref('notice_pending'), eb.or([eb('notice_lease_until', 'is', null), eb('notice_lease_until', '<', now)])]))
      .limit(100),
  );
}

export const examples: QueryExamples = {
  lostDeliveries: (db) => lostDeliveries(db, example.at, example.at, 1_000),
  eventsWaitingLongerThan: (db) => eventsWaitingLongerThan(db, 60_000),
  pruneDeliveries: (db) => pruneDeliveries(db, example.id, 200),
  leaseNotice: (db) => leaseNotice(db, example.id, example.at, example.at),
  lastFailure: (db) => lastFailure(db, example.id),
  clearNotice: (db) => clearNotice(db, example.id),
  pendingNotices: (db) => pendingNotices(db, example.at),
};
