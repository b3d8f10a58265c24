// Drafts the next migration from the entities: a throwaway PostgreSQL gets the committed migrations, MikroORM's
// migrator compares it with the entities and the difference is written as a migration class into
// src/platform/db/migrations/. Read it, comment it, and list it in migrations/index.ts; the schema check then passes.
//   npm run --silent draft-migration -- --name TelegramIds
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { entities } from '../app/entities.js';
import { migrate, openOrm } from '../platform/db/orm.js';
import { startEmbeddedPostgres } from '../platform/infra/embedded-postgres.js';

function fail(message: string): never {
  process.stderr.write(`draft-migration: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({ options: { name: { type: 'string' } } });
const name = values.name ?? '';
if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) fail('give --name in PascalCase, e.g. --name TelegramIds');

const migrations = resolve('src/platform/db/migrations');
const scratch = await mkdtemp(join(tmpdir(), 'draft-migration-'));
const db = await startEmbeddedPostgres(scratch);
try {
  const orm = await openOrm({ databaseUrl: db.url, entities });
  try {
    await migrate(orm);
    const drafted = await orm.migrator.create(scratch, false, false, name);
    if (drafted.diff.up.length === 0) {
      process.stdout.write('entities and migrations agree: nothing to draft\n');
    } else {
      // MikroORM names the class Migration<timestamp>_<name>; the committed ones read Migration<timestamp><name>.
      const className = drafted.fileName.replace(/\.ts$/, '').replace(`_${name}`, name);
      const code = (await readFile(join(scratch, drafted.fileName), 'utf8')).replaceAll(`_${name}`, name);
      const target = join(migrations, `${className}.ts`);
      await writeFile(target, code);
      process.stdout.write(`${target}\nlist ${className} in src/platform/db/migrations/index.ts\n`);
    }
  } finally {
    await orm.close();
  }
} finally {
  await db.stop();
  await rm(scratch, { recursive: true, force: true });
}
