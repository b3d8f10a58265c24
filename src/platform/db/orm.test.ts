// One pool per process: an ORM opened with the process's pool runs on it and leaves it open when it closes.
import { openOrm, type Orm } from './orm.js';
import { createSqlPool, type SqlPool } from './sql.js';

let sql: SqlPool;
let orm: Orm;

beforeAll(async () => {
  sql = createSqlPool(process.env.TEST_DATABASE_URL!, 1);
  orm = await openOrm({ databaseUrl: process.env.TEST_DATABASE_URL!, pool: sql });
});

afterAll(async () => {
  await sql.end();
});

const backendPid = async (): Promise<number> => {
  const rows = await orm.em.fork().getConnection().execute<Array<{ pid: number }>>('select pg_backend_pid() as pid');
  return rows[0]!.pid;
};

test("the ORM's statements run on the process's pool, not on a pool of its own", async () => {
  const held = await sql.connect();
  const heldPid = (await held.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  // The pool's only connection is taken: the ORM's statement waits for it.
  let answered = false;
  const pending = backendPid().then((pid) => {
    answered = true;
    return pid;
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(answered).toBe(false);
  held.release();
  expect(await pending).toBe(heldPid);
  expect(sql.totalCount).toBe(1);
});

test("closing the ORM leaves the process's pool open for the rest of the shutdown", async () => {
  await orm.close();
  const { rows } = await sql.query<{ one: number }>('select 1 as one');
  expect(rows[0]!.one).toBe(1);
});
