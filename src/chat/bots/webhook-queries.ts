// The statements of installing and removing a bot's webhook, and of dropping the bot's pending updates.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** Locks the bot's row; whether a webhook was set. */
export async function lockHadWebhook(client: SqlClient, botId: string): Promise<boolean> {
  const before = await firstRow(client, chatDb.selectFrom('bots').select('webhook_url').where('id', '=', botId).forUpdate());
  return before?.webhook_url != null;
}

export interface StoredWebhook {
  /** null removes the webhook, and with it secret, connections and certificate. */
  url: string | null;
  secret: string | null;
  maxConnections: number | null;
  certificate: string | null;
  /** Absent: the kinds stay as they were; empty: every kind. */
  allowedUpdates: string[] | undefined;
}

/** Writes the webhook and resets its delivery state (failures, retry time, last error). */
export async function writeWebhook(client: SqlClient, botId: string, webhook: StoredWebhook): Promise<void> {
  const allowed = webhook.allowedUpdates;
  await affected(
    client,
    chatDb
      .updateTable('bots')
      .set({
        webhook_url: webhook.url,
        webhook_secret: webhook.url === null ? null : webhook.secret,
        webhook_max_connections: webhook.url === null ? null : webhook.maxConnections,
        webhook_failures: 0,
        webhook_retry_at: null,
        webhook_last_error_at: null,
        webhook_last_error_message: null,
        webhook_certificate: webhook.url === null ? null : webhook.certificate,
      })
      // absent: the kinds stay as they were; empty: every kind (stored as null)
      .$if(allowed !== undefined, (q) => q.set({ allowed_updates: allowed!.length === 0 ? null : sql<string[]>`${allowed}::text[]` }))
      .where('id', '=', botId),
  );
}

export async function dropPendingUpdates(client: SqlClient, botId: string): Promise<void> {
  await affected(client, chatDb.deleteFrom('bot_updates').where('bot_id', '=', botId));
}

export const examples: QueryExamples = {
  lockHadWebhook: (db) => lockHadWebhook(db, example.id),
  writeWebhook: (db) =>
    writeWebhook(db, example.id, {
      url: 'https://example.com/hook',
      secret: example.text,
      maxConnections: 40,
      certificate: null,
      allowedUpdates: ['message'],
    }),
  dropPendingUpdates: (db) => dropPendingUpdates(db, example.id),
};
