// The outbox is written in one place: every other source goes through outbox-writer.ts (its writers, or its SQL
// fragment inside a statement), so that topics are typed by the layer that owns them. Migrations create the table
// and tests may seed rows; nothing else in src/ spells the insert out.
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { OutboxEntity } from './db/entities.js';
import { openOrm } from './db/orm.js';
import { createSqlPool, inTransaction } from './db/sql.js';
import { appendOutbox, outboxTopic, writeOutbox, writeOutboxRows } from './outbox-writer.js';
import { typedQueries } from './db/typed.js';
import { alternate } from '../../test/helpers/data.js';

const root = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

/** Whether the source file writes `insert into outbox`, as SQL text or as a typed insert. */
function insertsIntoOutbox(path: string): boolean {
  const text = readFileSync(join(root, path), 'utf8');
  return /insert\s+into\s+(public\.)?"?outbox"?[\s(]/i.test(text) || /insertInto\(\s*['"]outbox['"]/.test(text);
}

test('only src/platform/outbox-writer.ts writes `insert into outbox`, as text or as a typed insert', () => {
  const writers = sources(join(root, 'src')).filter(insertsIntoOutbox);
  expect(writers).toEqual(['src/platform/outbox-writer.ts']);
});

test('a topic literal is quoted, and anything but a dotted name is refused', () => {
  const compiled = typedQueries<object>().selectNoFrom(outboxTopic('message.created').as('topic')).compile();
  expect(compiled.sql).toBe(`select 'message.created' as "topic"`);
  expect(compiled.parameters).toEqual([]);
  expect(() => outboxTopic("x.y'; drop table outbox; --")).toThrow('not an outbox topic');
  expect(() => outboxTopic('created')).toThrow('not an outbox topic');
});

test('the writers store each payload as jsonb, in the order given, in the transaction of the caller', async () => {
  const sql = createSqlPool(process.env.TEST_DATABASE_URL!, 2);
  const orm = await openOrm({ databaseUrl: process.env.TEST_DATABASE_URL!, entities: [OutboxEntity], poolMax: 1 });
  const marker = randomUUID();
  try {
    await inTransaction(sql, async (client) => {
      await writeOutbox(client, 'writer.one', { marker, n: 0 });
      expect(
        await writeOutboxRows(
          client,
          [1, 2, 3].map((n) => ({ topic: `writer.${alternate(n, 'even', 'odd')}`, payload: { marker, n } })),
        ),
      ).toBe(3);
      expect(await writeOutboxRows(client, [])).toBe(0);
    });
    await orm.em.fork().transactional((em) => appendOutbox(em, 'writer.orm', { marker, n: 4 }));
    const undone = inTransaction(sql, async (client) => {
      await writeOutbox(client, 'writer.rolled_back', { marker, n: 5 });
      throw new Error('undo');
    });
    await expect(undone).rejects.toThrow('undo');
    const { rows } = await sql.query<{ topic: string; payload: { n: number } }>(
      "select topic, payload from outbox where payload->>'marker' = $1 order by id",
      [marker],
    );
    expect(rows.map((r) => [r.topic, r.payload.n])).toEqual([
      ['writer.one', 0],
      ['writer.odd', 1],
      ['writer.even', 2],
      ['writer.odd', 3],
      ['writer.orm', 4],
    ]);
  } finally {
    await sql.query("delete from outbox where payload->>'marker' = $1", [marker]);
    await sql.end();
    await orm.close();
  }
});
