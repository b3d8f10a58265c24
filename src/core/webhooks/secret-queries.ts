// The statements of the webhook secrets' key kept in platform_secrets, which no layer's tables list: the key is kept
// beside the cursor secret.
import type { PlatformSecretEntity } from '../../platform/db/entities.js';
import { affected, firstRow, typedQueries, type Runner, type TablesOf } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';

const secretsDb = typedQueries<TablesOf<typeof PlatformSecretEntity>>();

/** Stores the key unless one is stored: racing nodes agree on the first insert. */
export async function insertSecretKey(db: Runner, value: string): Promise<number> {
  return affected(
    db,
    secretsDb
      .insertInto('platform_secrets')
      .values({ name: 'webhook-secrets', value })
      .onConflict((oc) => oc.column('name').doNothing()),
  );
}

export async function storedSecretKey(db: Runner): Promise<string | undefined> {
  return (await firstRow(db, secretsDb.selectFrom('platform_secrets').select('value').where('name', '=', 'webhook-secrets')))?.value;
}

export const examples: QueryExamples = {
  insertSecretKey: (db) => insertSecretKey(db, example.text),
  storedSecretKey: (db) => storedSecretKey(db),
};
