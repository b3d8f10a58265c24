// The statements of webhook delivery: the bot's webhook and its oldest pending update, a delivery's outcome, and the
// bots the sweep asks deliveries for.
import { sql } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** The live bot's webhook and its delivery state; undefined when the bot is gone. */
export async function webhookTarget(db: Runner, botId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('bots')
      .select(['webhook_url', 'webhook_secret', 'webhook_certificate', 'webhook_failures', 'webhook_retry_at'])
      .where('id', '=', botId)
      .where('deleted_at', 'is', null),
  );
}

export async function oldestPendingUpdate(db: Runner, botId: string) {
  return firstRow(
    db,
    chatDb.selectFrom('bot_updates').select(['update_id', 'payload']).where('bot_id', '=', botId).orderBy('update_id').limit(1),
  );
}

/** Removes the delivered update and clears the bot's failure count (when it has one), in one statement. */
export async function markDelivered(db: Runner, botId: string, updateId: number): Promise<void> {
  await affected(
    db,
    chatDb
      .with('gone', (q) => q.deleteFrom('bot_updates').where('bot_id', '=', botId).where('update_id', '=', updateId))
      .updateTable('bots')
      .set({ webhook_failures: 0, webhook_retry_at: null })
      .where('id', '=', botId)
      .where('webhook_failures', '>', 0),
  );
}

export interface Failure {
  /** The URL posted to: the failure is recorded only while it is still the bot's webhook. */
  url: string;
  failures: number;
  retryAt: Date;
  at: Date;
  message: string;
}

/** Records a failed delivery; false when the webhook changed meanwhile and nothing was recorded. */
export async function recordFailure(db: Runner, botId: string, failure: Failure): Promise<boolean> {
  const recorded = await affected(
    db,
    chatDb
      .updateTable('bots')
      .set({
        webhook_failures: failure.failures,
        webhook_retry_at: failure.retryAt,
        webhook_last_error_at: failure.at,
        webhook_last_error_message: failure.message,
      })
      .where('id', '=', botId)
      .where('webhook_url', '=', failure.url),
  );
  return recorded > 0;
}

/** Live bots with a webhook, pending updates and no retry time still ahead. */
export async function botsDue(db: Runner, now: Date): Promise<string[]> {
  const due = await rows(
    db,
    chatDb
      .selectFrom('bots as b')
      .select('b.id')
      .where('b.deleted_at', 'is', null)
      .where('b.webhook_url', 'is not', null)
      .where((eb) => eb.or([eb('b.webhook_retry_at', 'is', null), eb('b.webhook_retry_at', '<=', now)]))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('bot_updates as u')
            .select(sql<number>`1`.as('one'))
            .whereRef('u.bot_id', '=', 'b.id'),
        ),
      ),
  );
  return due.map((b) => b.id);
}

export const examples: QueryExamples = {
  webhookTarget: (db) => webhookTarget(db, example.id),
  oldestPendingUpdate: (db) => oldestPendingUpdate(db, example.id),
  markDelivered: (db) => markDelivered(db, example.id, 1),
  recordFailure: (db) =>
    recordFailure(db, example.id, {
      url: 'https://example.com/hook',
      failures: 1,
      retryAt: example.at,
      at: example.at,
      message: example.text,
    }),
  botsDue: (db) => botsDue(db, example.at),
};
