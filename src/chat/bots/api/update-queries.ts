// The statements of getUpdates over a bot's pending updates: what an offset confirms is deleted, the rest is read
// oldest first.
import { affected, rows, type Runner } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** Deletes the bot's updates up to and including the one with this uuid (none when it names none). */
export async function confirmThrough(db: Runner, botId: string, updateId: string): Promise<void> {
  await affected(
    db,
    chatDb
      .deleteFrom('bot_updates')
      .where('bot_id', '=', botId)
      .where('update_id', '<=', (eb) =>
        eb.selectFrom('bot_updates as u').select('u.update_id').where('u.bot_id', '=', botId).where('u.id', '=', updateId),
      ),
  );
}

/** Deletes the bot's updates whose update_id is below the offset. */
export async function confirmBelow(db: Runner, botId: string, offset: number): Promise<void> {
  await affected(db, chatDb.deleteFrom('bot_updates').where('bot_id', '=', botId).where('update_id', '<', offset));
}

/** Deletes all but the bot's last `kept` updates. */
export async function keepLast(db: Runner, botId: string, kept: number): Promise<void> {
  await affected(
    db,
    chatDb
      .deleteFrom('bot_updates')
      .where('bot_id', '=', botId)
      .where('update_id', '<=', (eb) =>
        eb(
          eb
            .selectFrom('bot_updates as u')
            .select((inner) => inner.fn.max('u.update_id').as('top'))
            .where('u.bot_id', '=', botId),
          '-',
          kept,
        ),
      ),
  );
}

/** The payloads of the bot's oldest pending updates. */
export async function pendingUpdates(db: Runner, botId: string, limit: number): Promise<unknown[]> {
  const pending = await rows(
    db,
    chatDb.selectFrom('bot_updates').select('payload').where('bot_id', '=', botId).orderBy('update_id').limit(limit),
  );
  return pending.map((r) => r.payload);
}

export const examples: QueryExamples = {
  confirmThrough: (db) => confirmThrough(db, example.id, example.otherId),
  confirmBelow: (db) => confirmBelow(db, example.id, 42),
  keepLast: (db) => keepLast(db, example.id, 3),
  pendingUpdates: (db) => pendingUpdates(db, example.id, 100),
};
