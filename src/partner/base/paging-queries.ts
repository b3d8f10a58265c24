// The keyset fragment of the partner's Stripe-style lists: a table ordered by id (UUIDv7, so newest first is id
// descending), continued after the cursor's id.
import { sql, type SelectQueryBuilder } from 'kysely';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { partnerDb } from './tables.js';

/**
 * `statement` (its table, filters and columns) continued after `afterId`, newest first, `limit` rows. The id is
 * referenced unqualified, so the statement reads one table.
 */
export function afterIdPage<DB, TB extends keyof DB, R>(
  statement: SelectQueryBuilder<DB, TB, R>,
  afterId: string | undefined,
  limit: number,
): SelectQueryBuilder<DB, TB, R> {
  const id = sql.ref('id');
  return statement
    .$if(afterId !== undefined, (qb) => qb.where(sql<boolean>`${id} < ${afterId}`))
    .orderBy(id, 'desc')
    .limit(limit);
}

export const examples: QueryExamples = {
  afterIdPage: () => afterIdPage(partnerDb.selectFrom('ai_agents').select('id'), example.id, 51),
};
