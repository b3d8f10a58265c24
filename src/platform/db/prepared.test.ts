// Hot statements as named statements on the test run's PostgreSQL: one name per text, run with new values each call.
import { prepared } from './prepared.js';
import { createSqlPool, type SqlPool } from './sql.js';

let sql: SqlPool;
beforeAll(() => {
  sql = createSqlPool(process.env.TEST_DATABASE_URL!, 2);
});
afterAll(() => sql.end());

test('one name per distinct text, the same on every call', () => {
  const a = prepared('select $1::int + 1 as n', [1]);
  const b = prepared('select $1::int + 1 as n', [2]);
  const c = prepared('select $1::int + 2 as n', [1]);
  expect(a.name).toBeDefined();
  expect(b.name).toBe(a.name);
  expect(c.name).not.toBe(a.name);
  expect(b.values).toEqual([2]);
});

test('the pool runs a named statement again and again with new values', async () => {
  for (const v of [1, 2, 3, 4, 5, 6, 7]) {
    const { rows } = await sql.query<{ n: number }>(prepared('select $1::int * 10 as n', [v]));
    expect(rows[0]!.n).toBe(v * 10);
  }
});
