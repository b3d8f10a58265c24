// The entities are the schema's single source: the committed migrations, applied to an empty database, must build
// exactly the schema the entities describe. MikroORM's schema diff between the two must be empty; the indexes and
// triggers the entities can only give as DDL (which MikroORM matches by name) are compared with the catalogue's text.
// The check runs in a database of its own, so that no other suite's temporary change to the shared one can sway it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { entities } from '../../src/app/entities.js';
import { migrate, openOrm, type Orm } from '../../src/platform/db/orm.js';

const scratch = `schema_check_${randomBytes(4).toString('hex')}`;
let admin: pg.Client;
let orm: Orm;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
  await admin.connect();
  await admin.query(`create database ${scratch}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${scratch}`;
  orm = await openOrm({ databaseUrl: url.toString(), entities, poolMax: 2 });
  await migrate(orm);
});

afterAll(async () => {
  await orm?.close();
  await admin.query(`drop database if exists ${scratch} with (force)`);
  await admin.end();
});

/** The SQL that would turn the migrated database into the entities' schema; empty when they agree. */
async function schemaDiff(): Promise<string> {
  return (await orm.schema.getUpdateSchemaSQL({ wrap: false })).trim();
}

/** Each index and trigger an entity gives as DDL whose text differs from the catalogue's (or that is missing). */
async function ddlMismatches(): Promise<string[]> {
  const conn = orm.em.getConnection();
  const indexes = new Map(
    (
      await conn.execute<{ name: string; def: string }[]>(
        "select indexname as name, indexdef as def from pg_indexes where schemaname = 'public'",
      )
    ).map((r) => [r.name, r.def.replace(' ON public.', ' ON ')]),
  );
  const triggers = new Map(
    (
      await conn.execute<{ name: string; def: string }[]>(
        'select tgname as name, pg_get_triggerdef(oid) as def from pg_trigger where not tgisinternal',
      )
    ).map((r) => [r.name, r.def.replace(' ON public.', ' ON ')]),
  );
  const mismatches: string[] = [];
  for (const meta of orm.getMetadata().getAll().values()) {
    for (const index of [...meta.indexes, ...meta.uniques]) {
      if (typeof index.expression !== 'string') continue;
      const actual = indexes.get(index.name!);
      if (actual !== index.expression)
        mismatches.push(`index ${index.name}: entity "${index.expression}", database "${actual ?? '(none)'}"`);
    }
    for (const trigger of meta.triggers ?? []) {
      if (typeof trigger.expression !== 'string') continue;
      const actual = triggers.get(trigger.name!);
      if (actual !== trigger.expression)
        mismatches.push(`trigger ${trigger.name}: entity "${trigger.expression}", database "${actual ?? '(none)'}"`);
    }
  }
  return mismatches;
}

test('every table the migrations create has an entity, and every entity a table', async () => {
  const rows = await orm.em
    .getConnection()
    .execute<{ tablename: string }[]>("select tablename from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations'");
  const tables = rows.map((r) => r.tablename).sort();
  const mapped = [...orm.getMetadata().getAll().values()].map((meta) => meta.tableName).sort();
  expect(mapped).toEqual(tables);
});

test('the migrated schema is the entities’ schema: MikroORM finds nothing to change', async () => {
  // What the entities would need, when entities and migrations disagree.
  expect(await schemaDiff()).toBe('');
});

test('indexes and triggers given as DDL match the catalogue’s text', async () => {
  expect(await ddlMismatches()).toEqual([]);
});

test('the check sees a column and an index that the entities do not describe', async () => {
  const conn = orm.em.getConnection();
  await conn.execute('alter table drafts add column stray integer');
  await conn.execute('drop index messages_attachments');
  await conn.execute('create index messages_attachments on messages using gin (attachments)');
  try {
    expect(await schemaDiff()).toContain('alter table "drafts" drop column "stray"');
    expect((await ddlMismatches()).join('\n')).toContain('index messages_attachments');
  } finally {
    await conn.execute('alter table drafts drop column stray');
    await conn.execute('drop index messages_attachments');
    await conn.execute(
      'create index messages_attachments on messages using gin (attachments jsonb_path_ops) where attachments is not null',
    );
  }
  expect(await schemaDiff()).toBe('');
  expect(await ddlMismatches()).toEqual([]);
});
