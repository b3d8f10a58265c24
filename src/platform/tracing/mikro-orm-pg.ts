// MikroORM's PostgreSQL driver may resolve its own copy of pg (a different patch release nested under it): its
// statements are traced only if that copy's Client is wrapped too.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export async function mikroOrmPg(): Promise<unknown> {
  const ownEntry = createRequire(import.meta.url).resolve('pg');
  const at = ownEntry.lastIndexOf('/node_modules/pg/');
  if (at < 0) return null;
  const nested = `${ownEntry.slice(0, at)}/node_modules/@mikro-orm/postgresql/node_modules/pg/lib/index.js`;
  if (!existsSync(nested)) return null;
  const loaded = (await import(pathToFileURL(nested).href)) as { default?: unknown };
  return loaded.default ?? loaded;
}
