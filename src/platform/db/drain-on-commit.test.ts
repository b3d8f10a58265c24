// A commit that wrote events asks for a drain, once, after the commit; nothing else does (sql.ts, ADR 0152).
import { OutboxEntity } from './entities.js';
import { openOrm, type Orm } from './orm.js';
import { commitAfter, createSqlPool, inTransaction, lockSession, onEventsCommitted, unlockSession, type SqlPool } from './sql.js';
import { appendOutbox, writeOutbox } from '../outbox-writer.js';
import { firstRow, typedQueries, type TablesOf } from './typed.js';

let sql: SqlPool;
let orm: Orm;
let requests = 0;
const outboxDb = typedQueries<TablesOf<typeof OutboxEntity>>();

beforeAll(async () => {
  // One connection: every transaction below runs on the same client, so a mark left behind would show.
  sql = createSqlPool(process.env.TEST_DATABASE_URL!, 1);
  orm = await openOrm({ databaseUrl: process.env.TEST_DATABASE_URL!, pool: sql, entities: [OutboxEntity] });
  onEventsCommitted(sql, () => (requests += 1));
});

beforeEach(() => {
  requests = 0;
});

afterAll(async () => {
  await orm.close();
  await sql.end();
});

test('a transaction that wrote an event asks once, after its commit', async () => {
  await inTransaction(sql, async (client) => {
    await writeOutbox(client, 'test.written', { n: 1 });
    await writeOutbox(client, 'test.written', { n: 2 });
    expect(requests).toBe(0);
  });
  expect(requests).toBe(1);
});

test('a transaction that rolled back asks nothing, and leaves nothing owed to the next one on its connection', async () => {
  await expect(
    inTransaction(sql, async (client) => {
      await writeOutbox(client, 'test.written', { n: 3 });
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  await inTransaction(sql, async (client) => firstRow(client, outboxDb.selectFrom('outbox').select('id').limit(1)));
  expect(requests).toBe(0);
});

test('a transaction that only read asks nothing', async () => {
  await inTransaction(sql, async (client) => firstRow(client, outboxDb.selectFrom('outbox').select('id').limit(1)));
  expect(requests).toBe(0);
});

test('an event written by a statement on the pool is committed with it and asks at once', async () => {
  await writeOutbox(sql, 'test.written', { n: 4 });
  expect(requests).toBe(1);
});

test('a transaction opened with a session lock asks when commitAfter commits it', async () => {
  const client = await sql.connect();
  try {
    await lockSession(client, 'test:drain', { begin: true });
    await writeOutbox(client, 'test.written', { n: 5 });
    expect(requests).toBe(0);
    await commitAfter(client);
    expect(requests).toBe(1);
    await unlockSession(client, 'test:drain');
  } finally {
    client.release();
  }
});

test("an ORM transaction that appended an event asks once, after the ORM's commit", async () => {
  await orm.em.fork().transactional(async (em) => {
    await appendOutbox(em, 'test.written', { n: 6 });
    expect(requests).toBe(0);
  });
  expect(requests).toBe(1);
  await orm.em.fork().transactional(async (em) => {
    await em.findOne(OutboxEntity, { topic: 'test.written' });
  });
  expect(requests).toBe(1);
});

test('an ORM transaction that rolled back asks nothing', async () => {
  await expect(
    orm.em.fork().transactional(async (em) => {
      await appendOutbox(em, 'test.written', { n: 7 });
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  expect(requests).toBe(0);
});
