// Statements are built in query modules only (docs/adr/0153-query-modules-and-sql-snapshots.md): a service, handler or
// job decides, authorises and refuses, and calls a query module's named functions for its SQL. Outside the query
// modules (queries.ts, name-queries.ts) and the platform's data layer (src/platform/), src/ starts no statement with
// the query builder and writes no `sql` fragment.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const allowed = [/(^|\/|-)queries\.ts$/, /^platform\//, /\.test\.ts$/];

/** The start of a statement or a fragment of one: a builder's table entry point, or the `sql` tag and its helpers. */
const building =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|mergeInto|selectNoFrom|replaceInto)\(|\bsql(<[^`]*?>)?`|\bsql\.(lit|raw|ref|id|join|val|table)\(/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `file: count` of every file outside the allowed ones that builds SQL. */
function offenders(): string[] {
  const root = join(process.cwd(), 'src');
  return sourceFiles(root).flatMap((file) => {
    const path = relative(root, file).replaceAll('\\', '/');
    if (allowed.some((rule) => rule.test(path))) return [];
    const n = readFileSync(file, 'utf8').match(building)?.length ?? 0;
    return n > 0 ? [`${path}: ${n}`] : [];
  });
}

test('no file outside the query modules and the platform builds SQL', () => {
  expect(offenders()).toEqual([]);
});
