// The statements a node sends of its own: the registration of a module, and the count the metrics scrape reads.
import { sql } from 'kysely';
import { affected, firstRow, type Runner } from '../platform/db/typed.js';
import { example, type QueryExamples } from '../platform/db/query-examples.js';
import { chatDb } from '../chat/base/tables.js';

/** Registers the module unless it is registered already. */
export async function addModule(db: Runner, code: string, name: string): Promise<void> {
  await affected(
    db,
    chatDb
      .insertInto('modules')
      .values({ code, name })
      .onConflict((conflict) => conflict.doNothing()),
  );
}

/** How many rows bot_updates holds. */
export async function pendingBotUpdateCount(db: Runner): Promise<number> {
  return (await firstRow(db, chatDb.selectFrom('bot_updates').select(sql<number>`count(*)::int`.as('n'))))?.n ?? 0;
}

export const examples: QueryExamples = {
  addModule: (db) => addModule(db, 'dev', example.text),
  pendingBotUpdateCount: (db) => pendingBotUpdateCount(db),
};
